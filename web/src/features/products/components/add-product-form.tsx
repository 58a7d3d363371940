import { Alert, Button, Form, Input, InputNumber, Select } from 'antd';
import { CONDITIONS, USE_DURATIONS, type AddProductBody, type Category } from '@tv-shop/contracts';
import { useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { uploadPhoto, type UploadedImage } from '@/lib/upload-image';
import { addProduct } from '../api/add-product';
import { PhotosInput, photosRule } from './photos-input';

type AddProductValues = Omit<AddProductBody, 'productImage' | 'productImages' | 'productThumbnails'> & { photos: File[] };

const required = (what: string) => ({ required: true, message: `Please enter the ${what}` });
const conditionOptions = CONDITIONS.map((value) => ({ value, label: value }));
const durationOptions = USE_DURATIONS.map((value) => ({ value, label: value }));

/** Every field is required; the photos are shrunk and uploaded first, in order, then sent with the product. */
export function AddProductForm({ categories, onAdded }: { categories: Category[]; onAdded: () => void }) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async ({ photos, ...values }: AddProductValues) => {
    if (photos.length === 0) return;
    setBusy(true);
    setError(null);
    // Which photo a failed upload was, so the message can name it.
    let uploading = '';
    try {
      // One at a time: a phone holds one full-size photo in memory while it is shrunk, not eight.
      const uploaded: UploadedImage[] = [];
      for (const [index, photo] of photos.entries()) {
        uploading = `Photo ${index + 1} (${photo.name})`;
        setProgress(`Uploading photo ${index + 1} of ${photos.length}…`);
        uploaded.push(await uploadPhoto(photo));
      }
      uploading = '';
      setProgress('Saving the listing…');
      const category = categories.find((c) => c._id === values.category_id);
      await addProduct({
        ...values,
        productImage: uploaded[0]!.url,
        productImages: uploaded.map((u) => u.url),
        productThumbnails: uploaded.map((u) => u.thumbnailUrl),
        category_name: category?.category_name ?? '',
      });
      onAdded();
    } catch (failure) {
      console.error(failure);
      setError(uploading ? `${uploading}: ${errorMessage(failure)}` : errorMessage(failure));
      setBusy(false);
    } finally {
      setProgress('');
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
      <Form.Item label="Photos" name="photos" rules={[photosRule]} initialValue={[]} required>
        <PhotosInput />
      </Form.Item>
      {error ? <Alert className="form-alert" type="error" showIcon message={error} role="alert" /> : null}
      <p className="add-product-form__progress" role="status">
        {progress}
      </p>
      <Button type="primary" htmlType="submit" loading={busy} block>
        Add Product
      </Button>
    </Form>
  );
}
