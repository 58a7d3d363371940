import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import { FormSelect } from '@/components/ui/form-select';
import {
  CONDITIONS,
  UPLOADED_IMAGE,
  USE_DURATIONS,
  type AddProductBody,
  type Category,
  type Product,
  type WriteAnswer,
} from '@tv-shop/contracts';
import { useRef, useState } from 'react';
import { ApiError, errorMessage, fieldSentence, isOutage, logFailure, newKey } from '@/lib/api-client';
import { serverFields } from '@/lib/server-fields';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import type { UploadedImage } from '@/lib/upload-image';
import { addProduct } from '../api/add-product';
import { editProduct } from '../api/edit-product';
import { PhotosInput, photosRule, type Photo } from './photos-input';
import { resaleWarningRule } from './resale-warning';
import { Notice } from '@/components/ui/notice';

/** How long a photo uploaded from the form is used again rather than uploaded anew. */
const UPLOAD_KEPT_MS = 60 * 60 * 1000;

type AddProductValues = Omit<AddProductBody, 'productImage' | 'productImages' | 'productThumbnails' | 'resale_price' | 'orginal_price'> & {
  /** As typed: the server's rule (AddProductBody) decides what a price is, here and there. */
  resale_price: string;
  orginal_price: string;
  photos: Photo[];
};

/** Required, and spaces alone are not a value (the server trims them away and says so after the trip). */
const required = (what: string) => ({ required: true, whitespace: true, message: `Please enter the ${what}` });
// The server's own checks of a listing's fields (AddProductBody), fetched on first use.
const listingFields = serverFields(() => import('../add-product-schema').then((m) => m.AddProductBody.shape));
/** A listing's own fields, as the form has them (its photos apart). */
const LISTING_FIELDS = [
  'porduct_name',
  'location',
  'resale_price',
  'orginal_price',
  'phone_number',
  'product_condition',
  'use_duration',
  'category_id',
  'details',
] as const;
const FORM_FIELDS = new Set<string>(LISTING_FIELDS);
const conditionOptions = CONDITIONS.map((value) => ({ value, label: value }));
const durationOptions = USE_DURATIONS.map((value) => ({ value, label: value }));

/** The form's fields as a listing has them, to edit it: its photos too, kept as they are until moved or removed. */
const valuesOf = (p: Product): Partial<AddProductValues> => ({
  photos: p.productImages.map((url, i) => ({ url, thumbnailUrl: p.productThumbnails[i] ?? url, name: `listed photo ${i + 1}` })),
  porduct_name: p.porduct_name,
  location: p.location,
  resale_price: String(p.resale_price),
  orginal_price: String(p.orginal_price),
  phone_number: p.phone_number,
  product_condition: p.product_condition,
  use_duration: p.use_duration as AddProductValues['use_duration'],
  category_id: p.category_id,
  details: p.details,
});

interface ListingFormProps {
  categories: Category[];
  /** The seller's listing to edit (ADR 0057); without it, a new one is added. */
  listing?: Product;
  onSaved: (answer: WriteAnswer) => void;
  /**
   * The server refused an edit made on an older listing (ADR 0061): read the listing again, so the
   * form can offer it as it is now even if no push has said so yet.
   */
  onStale?: () => void;
}

/** The fields a save sends that the listing shows back as they were sent (the server trims its text). */
const SAVED_FIELDS = [...LISTING_FIELDS, 'productImage'] as const;

/** Whether `listing` is what the save of `body` made of it: its fields and its photos in order. */
const madeBy = (listing: Product, body: AddProductBody) =>
  SAVED_FIELDS.every((field) => {
    const sent = body[field];
    return typeof sent === 'string' ? String(listing[field]) === sent.trim() : listing[field] === sent;
  }) && (body.productImages ?? [body.productImage]).join(' ') === listing.productImages.join(' ');

/** A form's photos as a leave would compare them: a photo chosen here is one no listing has. */
const photoKeys = (photos: Photo[] = []) => photos.map((p) => (p instanceof File ? '\n' : p.url)).join(' ');
/** Whether the form holds anything it was not filled with: what leaving would lose. */
const differs = (now: Partial<AddProductValues>, was: Partial<AddProductValues>) =>
  LISTING_FIELDS.some((f) => String(now[f] ?? '') !== String(was[f] ?? '')) || photoKeys(now.photos) !== photoKeys(was.photos);

/** What a listing tells everyone about its seller (ADR 0069): said where the seller types it in. */
const LISTING_IS_PUBLIC = 'Public with the listing, as are your name and email, for buyers to reach you.';

/**
 * Every field is required; new photos are shrunk and uploaded first, in order, then sent with the
 * product. Editing a listing, its photos are there to reorder, remove or add to; the ones it
 * already has are sent as they are, with their thumbnails.
 */
export function AddProductForm({ categories, listing, onSaved, onStale }: ListingFormProps) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<AddProductValues>();
  // What was typed or chosen here and not saved is not lost to a tap on a menu link or a reload:
  // the form as it was filled (the listing, or nothing) against what it holds now.
  const filled = useRef(listing ? valuesOf(listing) : {});
  const saved = useLeaveGuard(() => differs(form.getFieldsValue(true) as Partial<AddProductValues>, filled.current));
  // One Idempotency-Key for this form's tries: a try whose answer was lost may have been done, and
  // pressing the button again with the same listing then lands once. The photos are stored by
  // their content, so the same photos give the same body; a changed form is a new request.
  const [writeKey] = useState(newKey);
  // The listing's edits as the form was filled from it: the server refuses the save if another
  // edit (another tab, another device) came since, and the live listing shows it first (ADR 0061).
  const [seenEdits, setSeenEdits] = useState(listing?.edits);
  // A save whose answer was lost (the server may have made it): if the listing's next edit is
  // that save, it is this form's own, not one made elsewhere; sent again, it lands once (the key).
  const [lostSave, setLostSave] = useState<{ edits: number; body: AddProductBody } | null>(null);
  const ownEdit =
    !!listing && !!lostSave && seenEdits === lostSave.edits && listing.edits === lostSave.edits + 1 && madeBy(listing, lostSave.body);
  // Not while this tab saves: its own edit is pushed back before the answer and the move away.
  const editedElsewhere = !busy && !ownEdit && listing?.edits !== undefined && seenEdits !== undefined && listing.edits > seenEdits;
  const loadAgainButton = useRef<HTMLButtonElement>(null);
  /**
   * Photos already uploaded from this form, by file: a save pressed again after a refusal or a
   * lost answer does not send them again (eight photos over mobile data, and the upload limit).
   * The server stores a photo by its content; one not yet referred to is kept a day, so an entry
   * is trusted for an hour.
   */
  const uploads = useRef(new WeakMap<File, { image: UploadedImage; at: number }>());
  const loadAgain = () => {
    if (!listing) return;
    form.resetFields();
    form.setFieldsValue((filled.current = valuesOf(listing)));
    setSeenEdits(listing.edits);
    setError(null);
    // The button pressed is gone with the warning: the focus goes to the form's first field.
    form.focusField('porduct_name');
  };
  // An error is about what was typed: it goes as soon as that is edited (checked again on leaving).
  const edited = (changed: Partial<AddProductValues>) => {
    setError(null);
    form.setFields(Object.keys(changed).map((name) => ({ name: name as keyof AddProductValues, errors: [] })));
  };

  const submit = async ({ photos = [], ...values }: AddProductValues) => {
    if (photos.length === 0) return;
    // The warning above already says a save would be refused: its button is the way on.
    if (editedElsewhere) {
      loadAgainButton.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    // Which photo a failed upload was, so the message can name it.
    let uploading = '';
    let sent: AddProductBody | null = null;
    setLostSave(null);
    try {
      // One at a time: a phone holds one full-size photo in memory while it is shrunk, not eight.
      const uploaded: UploadedImage[] = [];
      // Only the photos chosen here are uploaded (and counted): the listing's own are kept as they are.
      const chosen = photos.filter((photo): photo is File => photo instanceof File);
      for (const [index, photo] of photos.entries()) {
        if (!(photo instanceof File)) {
          uploaded.push(photo);
          continue;
        }
        uploading = `Photo ${index + 1} (${photo.name})`;
        const kept = uploads.current.get(photo);
        if (kept && Date.now() - kept.at < UPLOAD_KEPT_MS) {
          uploaded.push(kept.image);
          continue;
        }
        setProgress(`Uploading ${listing ? 'new ' : ''}photo ${chosen.indexOf(photo) + 1} of ${chosen.length}…`);
        // The shrinking and uploading code comes with the first photo sent, not with the form.
        const { uploadPhoto } = await import('@/lib/upload-image');
        const image = await uploadPhoto(photo);
        uploads.current.set(photo, { image, at: Date.now() });
        uploaded.push(image);
      }
      uploading = '';
      setProgress(listing ? 'Saving your changes…' : 'Saving the listing…');
      const category = categories.find((c) => c._id === values.category_id);
      const fields = await listingFields.fields();
      // Photos the listing has keep their own thumbnails at the server wherever they move (ADR
      // 0057), so a form saved as it was records nothing. New ones bring theirs, the kept ones' beside
      // them; a kept photo with none made here (a link the spec's client gave) leaves them all out.
      const thumbnails = uploaded.map((u) => u.thumbnailUrl);
      const pictures = {
        productImage: uploaded[0]!.url,
        productImages: uploaded.map((u) => u.url),
        ...(chosen.length > 0 && thumbnails.every((t) => UPLOADED_IMAGE.test(t)) ? { productThumbnails: thumbnails } : {}),
      };
      const body: AddProductBody = {
        ...values,
        resale_price: fields.resale_price.parse(values.resale_price),
        orginal_price: fields.orginal_price.parse(values.orginal_price),
        ...pictures,
        category_name: category?.category_name ?? '',
      };
      sent = body;
      const answer = await (listing ? editProduct(listing._id, { ...body, edits: seenEdits }, writeKey) : addProduct(body, writeKey));
      // Saved: the page moves on without asking.
      saved.current = true;
      onSaved(answer);
    } catch (failure) {
      logFailure(failure);
      if (sent && listing && seenEdits !== undefined && (isOutage(failure) || !(failure instanceof ApiError)))
        setLostSave({ edits: seenEdits, body: sent });
      setError(uploading ? `${uploading}: ${errorMessage(failure)}` : errorMessage(failure));
      // The server names the fields it refused: say it next to them too.
      const named = failure instanceof ApiError ? (failure.problem.errors ?? []).filter((e) => FORM_FIELDS.has(e.field)) : [];
      if (failure instanceof ApiError && failure.problem.field === 'edits') onStale?.();
      form.setFields(named.map((e) => ({ name: e.field as keyof AddProductValues, errors: [fieldSentence(e.field, e.message)] })));
      // As for the form's own checks: the first field refused is brought into view and focused.
      if (named[0]) form.scrollToField(named[0].field, { focus: true, block: 'center' });
      setBusy(false);
    } finally {
      setProgress('');
    }
  };

  return (
    <Form<AddProductValues>
      form={form}
      name={listing ? 'edit_product' : 'add_product'}
      initialValues={listing ? valuesOf(listing) : { photos: [] }}
      layout="vertical"
      onFinish={submit}
      onValuesChange={edited}
      validateTrigger="onBlur"
      // A refused submit shows where: the first field with an error is scrolled to and focused
      // (on a phone the rest of the form is off the screen, above the button).
      scrollToFirstError={{ focus: true, block: 'center' }}
      className="add-product-form"
    >
      <div className="form-grid">
        <Form.Item label="Product Name" name="porduct_name" rules={[required('product name'), listingFields.rule('porduct_name')]}>
          <Input />
        </Form.Item>
        <Form.Item label="Location" name="location" rules={[required('location'), listingFields.rule('location')]}>
          <Input />
        </Form.Item>
        <Form.Item
          label="Resale Price (TK)"
          name="resale_price"
          rules={[required('resale price'), listingFields.rule('resale_price'), resaleWarningRule]}
        >
          <Input inputMode="decimal" autoComplete="off" placeholder="25000" />
        </Form.Item>
        <Form.Item
          label="Original Price (TK)"
          name="orginal_price"
          rules={[required('original price'), listingFields.rule('orginal_price')]}
        >
          <Input
            inputMode="decimal"
            autoComplete="off"
            placeholder="52000"
            // The resale price's warning compares the two: checked again when this one is left, not
            // at each key (a resale not typed yet is left alone).
            onBlur={() => {
              if (listing || form.isFieldTouched('resale_price')) void form.validateFields(['resale_price']).catch(() => {});
            }}
          />
        </Form.Item>
        <Form.Item
          label="Phone Number"
          name="phone_number"
          rules={[required('phone number'), listingFields.rule('phone_number')]}
          extra={LISTING_IS_PUBLIC}
        >
          <Input type="tel" inputMode="tel" autoComplete="tel" placeholder="01712-345678" />
        </Form.Item>
        <Form.Item label="Condition" name="product_condition" rules={[{ required: true, message: 'Please choose the condition' }]}>
          <FormSelect options={conditionOptions} placeholder="Choose the condition" />
        </Form.Item>
        <Form.Item label="Years of Use" name="use_duration" rules={[{ required: true, message: 'Please choose the years of use' }]}>
          <FormSelect options={durationOptions} placeholder="Choose the years of use" />
        </Form.Item>
        <Form.Item label="Category" name="category_id" rules={[{ required: true, message: 'Please choose a category' }]}>
          <FormSelect placeholder="Choose a category" options={categories.map((c) => ({ value: c._id, label: c.category_name }))} />
        </Form.Item>
      </div>
      <Form.Item label="Details" name="details" rules={[required('details'), listingFields.rule('details')]}>
        <TextArea rows={4} />
      </Form.Item>
      <Form.Item label="Photos" name="photos" rules={[photosRule]} required>
        <PhotosInput />
      </Form.Item>
      {editedElsewhere ? (
        <Notice
          className="form-alert"
          type="warning"
          role="alert"
          title="This listing was changed elsewhere since you opened it."
          description="Saving now would overwrite those changes, so it is refused. Load the listing as it is now and make your changes on it."
          action={
            <Button ref={loadAgainButton} onClick={loadAgain}>
              Load it as it is now
            </Button>
          }
        />
      ) : null}
      {/* A save refused because of an edit elsewhere is said once, by the warning, once the listing is read again. */}
      {error && !editedElsewhere ? <Notice className="form-alert" type="error" title={error} role="alert" /> : null}
      <p className="add-product-form__progress" role="status">
        {progress}
      </p>
      <Button type="primary" htmlType="submit" loading={busy} block>
        {listing ? 'Save Changes' : 'Add Product'}
      </Button>
    </Form>
  );
}
