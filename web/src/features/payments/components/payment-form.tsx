import type { Booking, PaymentIntentAnswer, WriteAnswer } from '@tv-shop/contracts';
import { Button } from 'antd';
import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, errorMessage, logFailure } from '@/lib/api-client';
import { createPaymentIntent } from '../api/create-payment-intent';
import { recordPayment } from '../api/record-payment';
import type { CardOutcome } from '../types';
import { SandboxCardForm } from './sandbox-card-form';
import { focusLost } from '@/lib/focus-heading';
import { PartBoundary } from '@/components/ui/part-boundary';
import { retryableLazy } from '@/lib/code-download';

const StripeCardForm = retryableLazy(() => import('./stripe-card-form').then((m) => m.default));

interface PaymentFormProps {
  booking: Booking;
  payer: { name: string; email: string };
  /**
   * Why the booking can no longer be paid (it was cancelled meanwhile): said in red in place of the
   * card form (kept until the outcome of a payment already on its way).
   */
  closedReason?: string | null;
  /** Said under the payment's success: what the buyer does next. */
  afterPaid?: ReactNode;
  onPaid: (answer: WriteAnswer, transactionId: string) => void;
}

/**
 * 'Payment With Stripe': asks the server for a payment intent, lets the card form confirm it,
 * then records the payment. Card errors show in red under the form.
 */
export function PaymentForm({ booking, payer, closedReason = null, afterPaid = null, onPaid }: PaymentFormProps) {
  const [intent, setIntent] = useState<PaymentIntentAnswer | null>(null);
  const [intentError, setIntentError] = useState<string | null>(null);
  /** The card's own refusal (declined, the provider's message): about the card as typed. */
  const [error, setError] = useState<string | null>(null);
  /** The shop's refusal of a payment that went through (the TV went meanwhile): it says what became of the money. */
  const [refusal, setRefusal] = useState<string | null>(null);
  /** The payment went through but could not be recorded (the shop unreachable): the provider's report will. */
  const [recordError, setRecordError] = useState<string | null>(null);
  /** What a new attempt, or an edited card, no longer says: the card's, the shop's and the recording's failures. */
  const clearFailures = () => {
    setError(null);
    setRefusal(null);
    setRecordError(null);
  };
  const [busy, setBusy] = useState(false);
  // Whether a payment is on its way, at once (the state above is drawn a render later).
  const inFlight = useRef(false);
  const [transactionId, setTransactionId] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // Paid here, or elsewhere while the page was open (another tab, the provider's webhook): the
  // form gives way to the payment, so nobody presses Pay on a booking already paid.
  const paidWith = transactionId ?? (booking.paid ? (booking.transationId ?? '') : null);
  const payable = !closedReason && !booking.paid;
  // Pay is gone once paid: the focus goes to what says so, not to the page's start.
  const success = useRef<HTMLDivElement>(null);
  const paid = paidWith !== null;
  useEffect(() => {
    if (paid) success.current?.focus();
  }, [paid]);

  // An intent is for one placing at one price: booked again (ADR 0063) or at a new price, the page
  // asks for the intent of the booking as it is now, never charges the one it first got.
  useEffect(() => {
    if (!payable) return;
    let alive = true;
    setIntent(null);
    setIntentError(null);
    // Booked again after a refusal: what was refused then is not said of this placing.
    clearFailures();
    createPaymentIntent(booking._id).then(
      (answer) => alive && setIntent(answer),
      (failure: unknown) => {
        logFailure(failure);
        if (alive) setIntentError(errorMessage(failure));
      },
    );
    return () => {
      alive = false;
    };
  }, [booking._id, booking.booked_at, booking.price, payable, attempt]);

  const onOutcome = async (outcome: CardOutcome) => {
    if ('error' in outcome) {
      setError(outcome.error);
      return;
    }
    clearFailures();
    try {
      const answer = await recordPayment({
        bookingId: booking._id,
        transationId: outcome.paymentIntentId,
        username: booking.username,
        price: booking.price,
        email: booking.email,
        product_id: booking.product_id,
      });
      setTransactionId(outcome.paymentIntentId);
      onPaid(answer, outcome.paymentIntentId);
    } catch (failure) {
      // The same payment recorded twice (say by Stripe's webhook first) answers 200, so a 409
      // here is a real refusal: the TV was sold or removed meanwhile and the payment refunded.
      // Anything else (the shop unreachable) says nothing of the booking: why it closed stays.
      logFailure(failure);
      if (failure instanceof ApiError && failure.status === 409) setRefusal(errorMessage(failure));
      else setRecordError(errorMessage(failure));
    }
  };

  const cardProps = {
    // Only an intent for the booking's price now: one fetched for an earlier price pays nothing.
    clientSecret: payable && intent && intent.amount === Math.round(booking.price * 100) ? intent.clientSecret : null,
    billing: payer,
    onOutcome,
    // A refusal's message goes once the card is edited (why the booking closed stays).
    onEdit: clearFailures,
    busy,
    begin: () => {
      if (inFlight.current) return false;
      inFlight.current = true;
      setBusy(true);
      return true;
    },
    end: () => {
      inFlight.current = false;
      setBusy(false);
    },
  };
  // Once the booking is closed, why it closed replaces the intent's and the card's refusals; a
  // payment refused because it closed says why and what became of the money, so it replaces that.
  const messages = (
    closedReason ? [refusal ?? closedReason, refusal ? null : recordError] : [intentError, refusal, recordError, error]
  ).filter((m): m is string => !!m);
  // Closed, the card form gives way to why, once a payment on its way has its outcome.
  const formShown = paidWith === null && (!closedReason || busy);
  // The form went while the focus was in it (on Pay): the focus goes to why, not to the page's start.
  const notice = useRef<HTMLDivElement>(null);
  const formWasShown = useRef(formShown);
  useEffect(() => {
    const went = formWasShown.current && !formShown && paidWith === null;
    formWasShown.current = formShown;
    if (went && focusLost()) notice.current?.focus();
  }, [formShown, paidWith]);

  return (
    // A card in antd's look (styles.css), without antd's Card and its tabs in the page's download.
    <section className="payment-card" aria-labelledby="payment-card-title">
      <h2 id="payment-card-title" className="payment-card__title">
        Payment With Stripe
      </h2>
      {/* Paid: what says so. Closed: no card form, only why (below), as nothing can be paid now. */}
      {paidWith !== null ? (
        <div className="payment-success" role="status" tabIndex={-1} ref={success}>
          <h3 className="payment-success__title">Payment success</h3>
          {paidWith ? (
            <p>
              Your transaction id: <code className="transaction-id">{paidWith}</code>
            </p>
          ) : null}
          {afterPaid}
          <p>
            <Link to={paths.dashboard.myOrders.href()}>Back to My Orders</Link>
          </p>
        </div>
      ) : !formShown ? null : payable && !intent ? (
        // Which card form (Stripe's or the sandbox's) is the intent's to say; without one, the
        // message below says why, with Try again.
        intentError ? null : (
          <Spinner label="Preparing the payment" />
        )
      ) : intent?.provider === 'stripe' && !intent.publishableKey ? (
        // The server has Stripe's secret key but not the publishable one: no card form can work.
        <p className="card-error" role="alert">
          Card payments are not available on TV Shop right now; your booking is kept. Please try again later.
        </p>
      ) : intent?.provider === 'stripe' && intent.publishableKey ? (
        <PartBoundary what="the card form">
          <Suspense fallback={<Spinner />}>
            <StripeCardForm {...cardProps} publishableKey={intent.publishableKey} />
          </Suspense>
        </PartBoundary>
      ) : (
        <SandboxCardForm {...cardProps} />
      )}
      {paidWith === null ? (
        <div className="payment-card__messages" tabIndex={-1} ref={notice}>
          {messages.map((message) => (
            <p key={message} className="card-error" role="alert">
              {message}
            </p>
          ))}
        </div>
      ) : null}
      {paidWith === null && payable && intentError && !error && !refusal && !recordError ? (
        <Button onClick={() => setAttempt((n) => n + 1)}>Try again</Button>
      ) : null}
    </section>
  );
}
