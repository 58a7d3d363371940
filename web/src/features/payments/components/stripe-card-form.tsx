import { Button } from 'antd';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js';
import { useMemo, useState, type FormEvent } from 'react';
import type { CardFormProps } from '../types';

/** Stripe Elements, used only when the server has a publishable key; loaded lazily. */
export default function StripeCardForm({ publishableKey, ...props }: CardFormProps & { publishableKey: string }) {
  const stripe = useMemo(() => loadStripe(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe}>
      <StripeCard {...props} />
    </Elements>
  );
}

function StripeCard({ clientSecret, billing, onOutcome, onEdit, busy, begin, end }: CardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    // As the spec says: without the card element or the library, nothing happens.
    if (!stripe || !card || !clientSecret || !begin()) return;
    try {
      const { error, paymentIntent } = await stripe.confirmCardPayment(clientSecret, {
        payment_method: { card, billing_details: billing },
      });
      // An intent that already went through (its report to the shop failed, and Pay was pressed
      // again) is refused by Stripe.js with the intent attached: it is reported, not lost.
      const done = paymentIntent ?? error?.payment_intent;
      if (done?.status === 'succeeded') await onOutcome({ paymentIntentId: done.id });
      else if (error) await onOutcome({ error: error.message ?? 'The payment did not go through.' });
      else if (paymentIntent.status === 'processing')
        await onOutcome({ error: 'Your bank is still processing the payment: My Orders shows it as paid once it goes through.' });
      else await onOutcome({ error: 'The payment did not go through.' });
    } catch (failure) {
      await onOutcome({ error: failure instanceof Error ? failure.message : 'The payment did not go through.' });
    } finally {
      end();
    }
  };

  return (
    <form onSubmit={pay} className="card-form">
      <label className="stripe-card" aria-label="Card details">
        <CardElement onReady={() => setReady(true)} onChange={() => onEdit?.()} options={{ hidePostalCode: true }} />
      </label>
      {/* Busy, Pay is not disabled: a disabled button drops the focus, and a declined card would leave it nowhere. */}
      <Button type="primary" htmlType="submit" disabled={!stripe || !ready || !clientSecret} loading={busy}>
        Pay
      </Button>
    </form>
  );
}
