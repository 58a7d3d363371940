import type { ChangeEvent } from 'react';

interface ImageInputProps {
  id?: string;
  value?: File | null;
  onChange?: (file: File | null) => void;
  'aria-invalid'?: boolean;
}

/** A plain file input limited to images, shaped for antd's Form.Item (id, value, onChange). */
export function ImageInput({ id, onChange, ...rest }: ImageInputProps) {
  const pick = (event: ChangeEvent<HTMLInputElement>) => onChange?.(event.target.files?.[0] ?? null);
  return (
    <div className="image-input">
      <input id={id} type="file" accept="image/*" onChange={pick} aria-invalid={rest['aria-invalid']} />
    </div>
  );
}

/** Form rule: only image files pass, since the server stores images only. */
export const imageFileRule = {
  validator: (_: unknown, file: File | null | undefined) =>
    !file || file.type.startsWith('image/') ? Promise.resolve() : Promise.reject(new Error('Please choose an image file.')),
};
