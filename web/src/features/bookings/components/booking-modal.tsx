import { Form, Modal, type InputRef } from 'antd';
import Input from 'antd/es/input/Input';
import type { Product } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { ApiError, logFailure } from '@/lib/api-client';
import { serverFields } from '@/lib/server-fields';
import { useSubmit } from '@/lib/use-submit';
import { useMounted } from '@/lib/use-mounted';
import { listsReloadAtom } from '@/lib/use-live-list';
import { formatTk } from '@/lib/format';
import { useSessionUser } from '@/lib/session';
import { placeBooking } from '../api/place-booking';
import { readListing } from '../api/read-listing';
import { Notice } from '@/components/ui/notice';

/** The form's id, so the modal's footer button (outside the form) still submits it, Enter too. */
const FORM_ID = 'booking-form';

/** The server's own check of the phone (a seller must be able to call it), fetched on first use. */
const phoneRule = serverFields(() => import('../place-booking-schema').then((m) => m.PlaceBookingBody.shape)).rule('phone_number');

/** What a listing says that this dialog does not show: changed, the buyer looks at it again before booking. */
const UNSHOWN_TERMS = ['details', 'location', 'orginal_price', 'use_duration', 'product_condition', 'phone_number', 'category_id'] as const;
const photoSet = (p: Product) => [...p.productImages].sort().join(' ');
const changedUnseen = (was: Product, now: Product) => UNSHOWN_TERMS.some((f) => was[f] !== now[f]) || photoSet(was) !== photoSet(now);

interface BookingValues {
  phone_number: string;
  meeting_location: string;
}

/** How often the dialog reads a listing whose answer is older than what this tab knew of it (or 404), each wait twice the last. */
const BEHIND_TRIES = 6;
const FIRST_WAIT_MS = 250;
const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The chosen TV as the page keeps it (`useChosenProduct`): live, whether it left the store, and the log position known of it. */
export interface BookingDialogProps {
  product: Product | null;
  left: boolean;
  at: number | null;
  onClose: () => void;
}

/**
 * Opens on Book Now with the chosen TV. Item, price, name and email are read-only; the buyer
 * gives a phone number and where to meet. Lists need no refresh afterwards: pushes keep them.
 * It is mounted afresh for each opening (lazy-booking-modal.tsx unmounts it as it closes), so its
 * form starts empty without a reset: a reset after the first render would wipe what a buyer
 * typed at once into the phone field, which has the focus from the dialog's first frame.
 */
export function BookingModal({ product: live, left, at, onClose }: BookingDialogProps) {
  const user = useSessionUser();
  // The listing as the dialog shows it: as it was opened, or, once its seller changed it (a push
  // said so, or the server refused the booking for it), as it is now when only its name or price
  // changed (the dialog shows both), so Submit then books what is shown. Anything else changed
  // (or the listing could not be read again): Submit gives way to looking at it again.
  const [product, setProduct] = useState(live);
  const shown = useRef(product);
  shown.current = product;
  const [lookAgain, setLookAgain] = useState(false);
  // Sold while the dialog is open: said, and Submit off, until a push says it is for sale again
  // (a seller's "mark available" after a mistaken sale).
  const [soldNow, setSoldNow] = useState(false);
  // Refused for the TV itself (booked or bought already, sold, gone, the buyer's own, cancelled too
  // often): the same Submit would be refused again, so it is off; the refusal says why.
  const [refused, setRefused] = useState(false);
  // What changed while the dialog was open, said as soon as a push brings it (`live`, the listing
  // as this browser's store has it) or as the listing is read again: the same rules as after a
  // refusal, before Submit.
  const [changed, setChanged] = useState<string | null>(null);
  const heard = (was: Product, now: Product) => {
    if (now.sold) setSoldNow(true);
    // (Newer than shown only: a listing read again after a refusal may be ahead of the pushes.)
    if (now.edits <= was.edits) return;
    if (changedUnseen(was, now)) {
      setLookAgain(true);
      setChanged('The seller changed this listing while you were booking it: close this and read the listing again before booking it.');
      return;
    }
    setProduct(now);
    // Its photos only put in another order (ADR 0073): nothing the buyer reads here changed.
    if (now.resale_price !== was.resale_price || now.porduct_name !== was.porduct_name)
      setChanged(
        `The seller changed this listing while you were booking it: ${
          now.resale_price !== was.resale_price ? `it is now ${formatTk(now.resale_price)}` : `it is now called “${now.porduct_name}”`
        }.`,
      );
  };
  // Pushes come in the log's order: each says whether it is sold now (a read can only add a sale).
  useEffect(() => {
    if (live) setSoldNow(live.sold);
  }, [live]);
  useEffect(() => {
    if (live && product && live !== product) heard(product, live);
  }, [live, product]);
  // The listing read again: when it left this browser's store (a removal, or a list read again
  // without it; the dialog's own view of the TV holds it otherwise), and after a resync (the
  // socket missed more than the server could replay). A read older than what this tab knew of the
  // TV (a gateway whose read models are a moment behind) or a 404 is read again, a while later;
  // a removal answers 410, saying who took it off. What a read brings is judged against the
  // listing shown when it answers; it can only add a sale, never take one back.
  const resyncs = useAtomValue(listsReloadAtom);
  const [resyncsAtOpen] = useState(resyncs);
  const readAgain = left || resyncs !== resyncsAtOpen ? `${left}:${resyncs}` : null;
  const knownAt = useRef(at);
  knownAt.current = at;
  useEffect(() => {
    const id = product?._id;
    if (readAgain === null || !id) return;
    let current = true;
    const read = async () => {
      for (let tries = 1, ms = FIRST_WAIT_MS; ; tries += 1, ms *= 2) {
        const answer = await readListing(id).catch((failure: unknown) => {
          if (tries < BEHIND_TRIES && failure instanceof ApiError && failure.status === 404) return null;
          throw failure;
        });
        if (!current) return;
        if (answer && answer.position >= (knownAt.current ?? 0)) return heard(shown.current!, answer.product);
        // Behind all along: said nothing (Submit's own check at the server still stands).
        if (tries === BEHIND_TRIES) return;
        await wait(ms);
        if (!current) return;
      }
    };
    read().catch((failure: unknown) => {
      if (!current) return;
      if (failure instanceof ApiError && (failure.status === 410 || failure.status === 404)) {
        setLookAgain(true);
        // The 410 says who took it off ("This TV is no longer for sale: its seller took it off TV Shop").
        setChanged(`${failure.status === 410 ? failure.message : 'This TV is no longer for sale'}.`);
      } else logFailure(failure);
    });
    return () => {
      current = false;
    };
    // (Once a departure or a resync.)
  }, [readAgain]);
  const [form] = Form.useForm<BookingValues>();
  const phone = useRef<InputRef>(null);
  // The phone field has the focus as the dialog appears, not once its opening animation is over:
  // keys typed at once land there, not on the page behind. An effect, not autoFocus (which runs
  // before the dialog's portal is in the page, and is lost) nor a layout effect (which would run
  // before lazy-booking-modal.tsx has noted the Book Now button to give the focus back to).
  useEffect(() => phone.current?.focus(), []);
  // Closed (Escape) while its booking was on its way, it must not close the next one opened.
  const mounted = useMounted();

  const soldRefusal = useRef(false);
  const { submit, busy, error, setError } = useSubmit(async (values: BookingValues) => {
    if (!product || !user) return;
    try {
      await placeBooking({
        product_id: product._id,
        ...values,
        // The terms shown here: if the seller changes the listing meanwhile, the server refuses
        // (409 on `edits`, with the new price) rather than booking at terms the buyer never saw.
        edits: product.edits,
        porduct_name: product.porduct_name,
        price: product.resale_price,
        username: user.name,
        email: user.email,
        productImage: product.productImage,
      });
    } catch (failure) {
      if (failure instanceof ApiError && failure.problem.field === 'edits') {
        const now = await readListing(product._id).then(
          (read) => read.product,
          (lost: unknown) => void logFailure(lost),
        );
        if (now && !changedUnseen(product, now)) setProduct(now);
        else setLookAgain(true);
      } else if (
        failure instanceof ApiError &&
        failure.problem.field === 'product_id' &&
        failure.problem.type?.endsWith('/illegal-state')
      ) {
        // Sold before this tab heard of it: as the sale's push would say, until a push says it is
        // for sale again (the seller's "mark available"), which takes the refusal back too.
        soldRefusal.current = true;
        setSoldNow(true);
      } else if (
        failure instanceof ApiError &&
        (failure.problem.field === 'product_id' || failure.status === 403 || failure.status === 410)
      )
        setRefused(true);
      throw failure;
    }
    toast.success('Booking successfully');
    if (mounted.current) onClose();
  });

  useEffect(() => {
    if (soldNow || !soldRefusal.current) return;
    soldRefusal.current = false;
    setError(null);
  }, [soldNow]);

  return (
    <Modal
      open={!!live}
      title={product ? `Book ${product.porduct_name}` : 'Book'}
      okText="Submit"
      okButtonProps={{ htmlType: 'submit', form: FORM_ID, disabled: lookAgain || soldNow || refused }}
      confirmLoading={busy}
      onCancel={onClose}
      // Had the field not taken it, the dialog takes the focus at the end of its animation (on a
      // frame of its own): pass it on, but not from a field or button the buyer has moved to.
      afterOpenChange={(opened) => {
        if (opened && !document.activeElement?.matches('.ant-modal input, .ant-modal button')) phone.current?.focus();
      }}
      destroyOnHidden
    >
      {product && user ? (
        <Form<BookingValues>
          form={form}
          id={FORM_ID}
          name="booking"
          layout="vertical"
          onFinish={submit}
          requiredMark={false}
          // As Sign Up and Add Product: a refused Submit takes the focus to the first field to fix.
          scrollToFirstError={{ focus: true, block: 'center' }}
        >
          <Form.Item label="Item Name" htmlFor="booking_item">
            <Input id="booking_item" value={product.porduct_name} readOnly variant="filled" />
          </Form.Item>
          <Form.Item label="Price" htmlFor="booking_price">
            <Input id="booking_price" value={formatTk(product.resale_price)} readOnly variant="filled" />
          </Form.Item>
          <Form.Item label="Your Name" htmlFor="booking_username">
            <Input id="booking_username" value={user.name} readOnly variant="filled" />
          </Form.Item>
          <Form.Item label="Your Email" htmlFor="booking_email">
            <Input id="booking_email" value={user.email} readOnly variant="filled" />
          </Form.Item>
          <Form.Item
            label="Phone Number"
            name="phone_number"
            rules={[{ required: true, whitespace: true, message: 'Please enter your phone number' }, phoneRule]}
          >
            <Input ref={phone} type="tel" autoComplete="tel" />
          </Form.Item>
          <Form.Item
            label="Meeting Location"
            name="meeting_location"
            rules={[
              { required: true, whitespace: true, message: 'Please enter where to meet' },
              // The server's limit (PlaceBookingBody), said at the field before anything is sent.
              { max: 200, message: 'Meeting location must be at most 200 characters' },
            ]}
          >
            <Input />
          </Form.Item>
          {error ? (
            <Notice
              className="form-alert"
              type="error"
              title={error}
              description={lookAgain ? 'More than its price changed: close this and read the listing again before booking it.' : undefined}
              role="alert"
            />
          ) : null}
          {/* After a refusal too: a push that came since says what the dialog shows now. */}
          {soldNow ? (
            <Notice className="form-alert" type="warning" title="This TV was sold while you were booking it." role="alert" />
          ) : null}
          {changed && !soldNow ? <Notice className="form-alert" type="warning" title={changed} role="alert" /> : null}
        </Form>
      ) : null}
    </Modal>
  );
}
