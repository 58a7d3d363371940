import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import { errorMessage, logFailure } from '@/lib/api-client';
import { confirmSandboxPayment } from '../api/confirm-sandbox-payment';
import type { CardFormProps } from '../types';
import { Notice } from '@/components/ui/notice';
import { cardNumberProblem, cvcProblem, expiryProblem, formatCardNumber, formatExpiry, parseExpiry } from './card-fields';

interface CardValues {
  number: string;
  expiry: string;
  cvc: string;
}

/** An antd rule from one of the card checks: the check's sentence, or nothing when it is fine. */
const ruleOf = (problem: (value: string) => string | null) => ({
  validator: async (_: unknown, value: string | undefined) => {
    const text = problem(value ?? '');
    if (text) throw new Error(text);
  },
});

/**
 * Our own card form for the server's payment sandbox (no card provider configured). The number
 * is grouped in fours and the expiry gets its slash as they are typed; phones show a keypad. It
 * says it is a test and which cards to use, so nobody types in a real card.
 */
export function SandboxCardForm({ clientSecret, billing, onOutcome, busy, begin, end, onEdit }: CardFormProps) {
  const [form] = Form.useForm<CardValues>();
  // A field's complaint goes as soon as it is edited; it is checked again on leaving it.
  const clearEdited = (changed: Partial<CardValues>) => {
    form.setFields(Object.keys(changed).map((name) => ({ name: name as keyof CardValues, errors: [] })));
    onEdit?.();
  };

  const pay = async (values: CardValues) => {
    // Enter in a field while a payment is on its way pays nothing more.
    if (!clientSecret || !begin()) return;
    try {
      const answer = await confirmSandboxPayment({
        clientSecret,
        card: { number: values.number.replace(/\D/g, ''), cvc: values.cvc.trim(), ...parseExpiry(values.expiry)! },
        billing_details: billing,
      });
      await onOutcome(
        answer.error || answer.paymentIntent.status !== 'succeeded'
          ? { error: answer.error?.message ?? 'The payment did not go through.' }
          : { paymentIntentId: answer.paymentIntent.id },
      );
    } catch (failure) {
      logFailure(failure);
      await onOutcome({ error: errorMessage(failure) });
    } finally {
      end();
    }
  };

  return (
    <>
      <Notice
        type="info"
        className="card-form__test-mode"
        title="Test mode: no card is charged."
        description={
          <>
            Pay with <code>4242 4242 4242 4242</code> (or any valid card number), a future expiry and any CVC;{' '}
            <code>4000 0000 0000 0002</code> is declined.
          </>
        }
      />
      <Form<CardValues>
        form={form}
        name="card"
        layout="vertical"
        onFinish={pay}
        onValuesChange={clearEdited}
        requiredMark={false}
        className="card-form"
      >
        <Form.Item
          label="Card number"
          name="number"
          normalize={formatCardNumber}
          validateTrigger="onBlur"
          rules={[ruleOf(cardNumberProblem)]}
        >
          <Input inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" maxLength={23} />
        </Form.Item>
        <div className="card-form__row">
          <Form.Item label="Expiry (MM/YY)" name="expiry" normalize={formatExpiry} validateTrigger="onBlur" rules={[ruleOf(expiryProblem)]}>
            <Input inputMode="numeric" autoComplete="cc-exp" placeholder="MM/YY" maxLength={7} />
          </Form.Item>
          <Form.Item label="CVC" name="cvc" validateTrigger="onBlur" rules={[ruleOf(cvcProblem)]}>
            <Input inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={4} />
          </Form.Item>
        </div>
        {/* Busy, Pay is not disabled: a disabled button drops the focus, and a declined card would leave it nowhere. */}
        <Button type="primary" htmlType="submit" disabled={!clientSecret} loading={busy}>
          Pay
        </Button>
      </Form>
    </>
  );
}
