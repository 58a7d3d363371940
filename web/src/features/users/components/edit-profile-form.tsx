import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { ImageInput, imageFileRule } from '@/components/ui/image-input';
import { Notice } from '@/components/ui/notice';
import { hasRole, patchSessionUserAtom, useSessionUser } from '@/lib/session';
import { uploadImage } from '@/lib/upload-image';
import { useSubmit } from '@/lib/use-submit';
import { updateProfile } from '../api/update-profile';

interface Values {
  name: string;
  photo?: File | null;
}

/** As the server takes a name: trimmed, at most 80 characters. */
const NAME_MAX = 80;

/**
 * The signed-in account's name and photo. A seller's name is what buyers see on their listings
 * and, once they book, whom to call (ADR 0075): it changes there too, live. The email and the role
 * are the account's for good.
 */
export function EditProfileForm() {
  const user = useSessionUser();
  const patchSessionUser = useSetAtom(patchSessionUserAtom);
  const [form] = Form.useForm<Values>();
  const [done, setDone] = useState(false);
  // A file input keeps what was chosen on screen: a new one once the photo is saved.
  const [photoInput, setPhotoInput] = useState(0);
  // The name changed elsewhere (another tab, a device) while this form is untouched: it shows that one.
  const current = user?.name;
  useEffect(() => {
    if (current !== undefined && !form.isFieldTouched('name')) form.setFieldsValue({ name: current });
  }, [current, form]);
  const { submit, busy, error, setError } = useSubmit(async ({ name, photo }: Values) => {
    if (!user) return;
    const trimmed = name.trim();
    // The photo is uploaded first, as at Sign Up. Only what changed is sent: a new photo alone
    // does not put back a name this form was filled with before it changed elsewhere.
    const photoURL = photo ? await uploadImage(photo) : undefined;
    const change = { ...(trimmed !== user.name ? { name: trimmed } : {}), ...(photoURL ? { photoURL } : {}) };
    if (Object.keys(change).length > 0) {
      await updateProfile(user.email, change);
      // The account's own row is pushed too; this tab need not wait for it.
      patchSessionUser(change);
    }
    form.resetFields(['photo', 'name']);
    form.setFieldsValue({ name: trimmed });
    setPhotoInput((n) => n + 1);
    setDone(true);
    toast.success('Profile updated.');
  });
  if (!user) return null;
  const hint = hasRole(user, 'Seller')
    ? 'Buyers see your name on your listings, and call you by it once they book.'
    : hasRole(user, 'Buyer')
      ? 'Sellers see it on the bookings you place from now on.'
      : null;
  return (
    <section className="account-profile" aria-labelledby="account-profile-title">
      <h2 id="account-profile-title">Your name and photo</h2>
      {hint ? <p className="profile-card__hint">{hint}</p> : null}
      <Form<Values>
        form={form}
        name="edit-profile"
        layout="vertical"
        initialValues={{ name: user.name }}
        onFinish={submit}
        onValuesChange={() => {
          setError(null);
          setDone(false);
        }}
        requiredMark={false}
        scrollToFirstError={{ focus: true, block: 'center' }}
      >
        <Form.Item
          label="Name"
          name="name"
          rules={[
            { required: true, whitespace: true, message: 'Please enter your name' },
            {
              validator: async (_: unknown, value: string | undefined) => {
                if ((value ?? '').trim().length > NAME_MAX) throw new Error(`Your name must be at most ${NAME_MAX} characters`);
              },
            },
          ]}
        >
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item label="New photo (optional)" name="photo" rules={[imageFileRule]}>
          <ImageInput key={photoInput} />
        </Form.Item>
        {error ? <Notice className="form-alert" type="error" title={error} role="alert" /> : null}
        {done ? (
          <Notice className="form-alert" type="success" role="status" title="Saved: your name and photo are as shown above." />
        ) : null}
        <Button type="primary" htmlType="submit" loading={busy}>
          Save
        </Button>
      </Form>
    </section>
  );
}
