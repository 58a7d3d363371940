import { Alert, Button, Form, Input, InputNumber, Select } from 'antd';
import { CONDITIONS, USE_DURATIONS, type AddProductBody, type Category } from '@tv-shop/contracts';
import { useState } from 'react';
import { ImageInput, imageFileRule } from '@/components/ui/image-input';
import { errorMessage } from '@/lib/api-client';
import { uploadImage } from '@/lib/upload-image';
import { addProduct } from '../api/add-product';

type AddProductValues = Omit<AddProductBody, 'productImage'> & { image: File | null };

const required = (what: string) => ({ required: true, message: `Please enter the ${what}` });
const conditionOptions = CONDITIONS.map((value) => ({ value, label: value }));
const durationOptions = USE_DURATIONS.map((value) => ({ value, label: value }));

/** Every field is required; the image is uploaded first and its URL sent with the product. */
export function AddProductForm({ categories, onAdded }: { categories: Category[]; onAdded: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async ({ image, ...values }: AddProductValues) => {
    if (!image) return;
    setBusy(true);
    setError(null);
    try {
      const productImage = await uploadImage(image);
      const category = categories.find((c) => c._id === values.category_id);
      await addProduct({ ...values, productImage, category_name: category?.category_name ?? '' });
      onAdded();
    } catch (failure) {
      console.error(failure);
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <Form<AddProductValues> name="add_product" layout="vertical" onFinish={submit} className="add-product-form">
      <div className="form-grid">
        <Form.Item label="Product Name" name="porduct_name" rules={[required('product name')]}>
          <Input />
        </Form.Item>
        <Form.Item label="Location" name="location" rules={[required('location')]}>
          <Input />
        </Form.Item>
        <Form.Item label="Resale Price (TK)" name="resale_price" rules={[required('resale price')]}>
          <InputNumber min={0} step={1} className="full-width" />
        </Form.Item>
        <Form.Item label="Original Price (TK)" name="orginal_price" rules={[required('original price')]}>
          <InputNumber min={0} step={1} className="full-width" />
        </Form.Item>
        <Form.Item label="Phone Number" name="phone_number" rules={[required('phone number')]}>
          <Input type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item label="Condition" name="product_condition" rules={[{ required: true, message: 'Please choose the condition' }]}>
          <Select options={conditionOptions} placeholder="Choose the condition" />
        </Form.Item>
        <Form.Item label="Years of Use" name="use_duration" rules={[{ required: true, message: 'Please choose the years of use' }]}>
          <Select options={durationOptions} placeholder="Choose the years of use" />
        </Form.Item>
        <Form.Item label="Category" name="category_id" rules={[{ required: true, message: 'Please choose a category' }]}>
          <Select placeholder="Choose a category" options={categories.map((c) => ({ value: c._id, label: c.category_name }))} />
        </Form.Item>
      </div>
      <Form.Item label="Details" name="details" rules={[required('details')]}>
        <Input.TextArea rows={4} />
      </Form.Item>
      <Form.Item label="Product Image" name="image" rules={[{ required: true, message: 'Please choose an image' }, imageFileRule]}>
        <ImageInput />
      </Form.Item>
      {error ? <Alert className="form-alert" type="error" showIcon message={error} role="alert" /> : null}
      <Button type="primary" htmlType="submit" loading={busy} block>
        Add Product
      </Button>
    </Form>
  );
}
