import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { FormSelect } from '@/components/ui/form-select';
import type { AuthAnswer, SignupBody } from '@tv-shop/contracts';
import { ImageInput, imageFileRule } from '@/components/ui/image-input';
import { useSubmit } from '@/lib/use-submit';
import { uploadImage } from '@/lib/upload-image';
import { signup } from '../api/signup';
import { EMAIL_RULES, newPasswordRules } from './field-rules';
import { Notice } from '@/components/ui/notice';

interface SignupValues {
  name: string;
  email: string;
  password: string;
  role: SignupBody['role'];
  photo?: File | null;
}

const ROLE_OPTIONS = [
  { value: 'Buyer', label: 'Buyer' },
  { value: 'Seller', label: 'Seller' },
];

export function SignupForm({ onSignedUp }: { onSignedUp: (answer: AuthAnswer) => void }) {
  const { submit, busy, error, setError } = useSubmit(async ({ photo, ...values }: SignupValues) => {
    // The photo is uploaded first (allowed before sign-in) and its URL joins the signup.
    const photoURL = photo ? await uploadImage(photo) : undefined;
    onSignedUp(await signup({ ...values, ...(photoURL ? { photoURL } : {}) }));
  });

  return (
    // A refusal is about what was typed: it goes as soon as the user types again.
    <Form<SignupValues>
      name="signup"
      // The form's own messages say what is wrong, not the browser's bubble on top of them.
      noValidate
      layout="vertical"
      onFinish={submit}
      onValuesChange={() => setError(null)}
      initialValues={{ role: 'Buyer' }}
      requiredMark={false}
      // On a phone the first field with an error may be above the screen: it is brought into view and focused.
      scrollToFirstError={{ focus: true, block: 'center' }}
    >
      <Form.Item
        label="Name"
        name="name"
        rules={[
          { required: true, message: 'Please enter your name' },
          // The server's limit (SignupBody), said at the field before anything is sent.
          { max: 80, message: 'Name must be at most 80 characters' },
        ]}
      >
        <Input autoComplete="name" autoFocus />
      </Form.Item>
      <Form.Item label="Email" name="email" rules={EMAIL_RULES}>
        <Input type="email" autoComplete="email" />
      </Form.Item>
      <Form.Item label="Password" name="password" rules={newPasswordRules('Please enter a password')}>
        <Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item label="Role" name="role" rules={[{ required: true }]}>
        <FormSelect options={ROLE_OPTIONS} />
      </Form.Item>
      <Form.Item label="Photo" name="photo" rules={[imageFileRule]}>
        <ImageInput />
      </Form.Item>
      {error ? <Notice className="form-alert" type="error" title={error} role="alert" /> : null}
      <Button type="primary" htmlType="submit" block loading={busy}>
        Sign Up
      </Button>
    </Form>
  );
}
