import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { confirmSandboxPayment } from '../api/confirm-sandbox-payment';
import type { CardFormProps } from '../types';

interface CardValues {
  number: string;
  expiry: string;
  cvc: string;
}

/** "12/34" or "12/2034" into month and full year. */
function parseExpiry(expiry: string): { exp_month: number; exp_year: number } {
  const [month = '', year = ''] = expiry.split('/').map((part) => part.trim());
  const fullYear = year.length === 2 ? 2000 + Number(year) : Number(year);
  return { exp_month: Number(month), exp_year: fullYear };
}

/** Our own card form for the server's payment sandbox (no card provider configured). */
export function SandboxCardForm({ clientSecret, billing, onOutcome }: CardFormProps) {
  const [busy, setBusy] = useState(false);

  const pay = async (values: CardValues) => {
    if (!clientSecret) return;
    setBusy(true);
    try {
      const answer = await confirmSandboxPayment({
        clientSecret,
        card: { number: values.number.replace(/\s+/g, ''), cvc: values.cvc.trim(), ...parseExpiry(values.expiry) },
        billing_details: billing,
      });
      await onOutcome(
        answer.error || answer.paymentIntent.status !== 'succeeded'
          ? { error: answer.error?.message ?? 'The payment did not go through.' }
          : { paymentIntentId: answer.paymentIntent.id },
      );
    } catch (failure) {
      console.error(failure);
      await onOutcome({ error: errorMessage(failure) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<CardValues> name="card" layout="vertical" onFinish={pay} requiredMark={false} className="card-form">
      <Form.Item label="Card number" name="number" rules={[{ required: true, message: 'Please enter the card number' }]}>
        <Input inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" />
      </Form.Item>
      <div className="card-form__row">
        <Form.Item
          label="Expiry (MM/YY)"
          name="expiry"
          rules={[{ required: true, pattern: /^\s*\d{1,2}\s*\/\s*(\d{2}|\d{4})\s*$/, message: 'Use MM/YY' }]}
        >
          <Input autoComplete="cc-exp" placeholder="MM/YY" />
        </Form.Item>
        <Form.Item label="CVC" name="cvc" rules={[{ required: true, pattern: /^\s*\d{3,4}\s*$/, message: '3 or 4 digits' }]}>
          <Input inputMode="numeric" autoComplete="cc-csc" placeholder="123" />
        </Form.Item>
      </div>
      <Button type="primary" htmlType="submit" disabled={!clientSecret || busy} loading={busy}>
        Pay
      </Button>
    </Form>
  );
}
