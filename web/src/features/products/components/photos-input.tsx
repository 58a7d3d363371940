import { ArrowLeftOutlined, ArrowRightOutlined, DeleteOutlined } from '@ant-design/icons';
import { MAX_LISTING_PHOTOS } from '@tv-shop/contracts';
import { Button } from 'antd';
import { useEffect, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import type { UploadedImage } from '@/lib/upload-image';

/** A photo the listing already has, kept as it is (not uploaded again); `name` tells it apart ("listed photo 2"). */
export type ListedPhoto = UploadedImage & { name: string };
/** A photo chosen from this device, or one the listing already has. */
export type Photo = File | ListedPhoto;

interface PhotosInputProps {
  id?: string;
  value?: Photo[];
  onChange?: (photos: Photo[]) => void;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/** A stable key for each photo, so its preview survives being moved. */
const keys = new WeakMap<Photo, number>();
let lastKey = 0;
const keyOf = (photo: Photo) => {
  if (!keys.has(photo)) keys.set(photo, ++lastKey);
  return keys.get(photo)!;
};

/** Whether a photo is an image: one the listing has already is. */
const isImage = (photo: Photo) => !(photo instanceof File) || photo.type.startsWith('image/');

/** Form rule: at least one photo, and only images (the server stores images only). */
export const photosRule = {
  validator: (_: unknown, files: Photo[] | undefined) => {
    if (!files?.length) return Promise.reject(new Error('Please choose at least one photo'));
    if (!files.every(isImage)) return Promise.reject(new Error('Please choose image files only.'));
    return Promise.resolve();
  },
};

/** One photo shown small: the listing's own by its thumbnail, a chosen file by an object URL that lives as long as the preview. */
function Preview({ photo, alt }: { photo: Photo; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!(photo instanceof File)) {
      setSrc(photo.thumbnailUrl);
      return;
    }
    const url = URL.createObjectURL(photo);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);
  return src ? <img src={src} alt={alt} /> : <span className="photos-input__placeholder" />;
}

/**
 * Up to MAX_LISTING_PHOTOS photos, shaped for antd's Form.Item (id, value, onChange): previews
 * in order, the first the cover; each moves left or right by its buttons (or by dragging with a
 * pointer) and can be removed. What changed is said in a polite live region.
 */
export function PhotosInput({ id, value = [], onChange, ...rest }: PhotosInputProps) {
  const [said, say] = useState('');
  const [refused, setRefused] = useState<{ text: string; choice: number } | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const list = useRef<HTMLOListElement>(null);
  // After a move the moved photo's button keeps the focus, wherever the photo went.
  const [focusAfter, setFocusAfter] = useState<{ index: number; action: 'left' | 'right' | 'remove' } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const full = value.length >= MAX_LISTING_PHOTOS;
  const hintId = id ? `${id}-hint` : undefined;
  // The form's own messages (antd's help) and the hint both describe the input.
  const refusedId = id ? `${id}-refused` : undefined;
  const describedBy = [rest['aria-describedby'], hintId, refused ? refusedId : undefined].filter(Boolean).join(' ') || undefined;

  useEffect(() => {
    if (!focusAfter) return;
    const item = list.current?.children[focusAfter.index];
    const wanted = item?.querySelector<HTMLButtonElement>(`[data-action="${focusAfter.action}"]:not(:disabled)`);
    // A photo moved to an end (its arrow now disabled) keeps the focus on itself, not on the
    // other arrow, where pressing Enter again would move it back.
    if (wanted) wanted.focus();
    else if (focusAfter.action === 'remove') item?.querySelector<HTMLButtonElement>('[data-action]:not(:disabled)')?.focus();
    else (item as HTMLElement | undefined)?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  const add = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    // Cleared, so that choosing the same file again after removing it is noticed.
    event.target.value = '';
    const { sortChoice } = await import('./photo-choice');
    const choice = await sortChoice(chosen, value.length, isImage);
    // Keyed by the choice, so choosing the same file again is said again.
    setRefused(choice.refused ? { text: choice.refused, choice: (refused?.choice ?? 0) + 1 } : null);
    if (choice.taken.length > 0) onChange?.([...value, ...choice.taken]);
    // The alert says what was left out; nothing more to say when nothing was added.
    if (choice.said) say(choice.said);
  };
  const move = (from: number, to: number, action?: 'left' | 'right') => {
    if (to < 0 || to >= value.length || from === to) return;
    const next = [...value];
    const [photo] = next.splice(from, 1);
    next.splice(to, 0, photo!);
    onChange?.(next);
    say(`Photo ${from + 1} moved to position ${to + 1} of ${value.length}.${to === 0 ? ' It is the cover now.' : ''}`);
    if (action) setFocusAfter({ index: to, action });
  };
  const remove = (index: number) => {
    onChange?.(value.filter((_, i) => i !== index));
    say(`Photo ${index + 1} removed.`);
    // The focus goes to the photo that took its place, or back to the file input.
    if (value.length > 1) setFocusAfter({ index: Math.min(index, value.length - 2), action: 'remove' });
    else input.current?.focus();
  };
  const drop = (event: DragEvent, to: number) => {
    event.preventDefault();
    if (dragFrom !== null) move(dragFrom, to);
    setDragFrom(null);
  };

  return (
    <div className="photos-input">
      <p className="photos-input__hint" id={hintId}>
        Up to {MAX_LISTING_PHOTOS} photos; any size — we shrink them before upload. The first one is the cover: reorder them with the arrows
        or by dragging.
      </p>
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/*"
        multiple
        onChange={(event) => void add(event)}
        disabled={full}
        aria-invalid={rest['aria-invalid']}
        aria-describedby={describedBy}
      />
      {refused ? (
        <p className="photos-input__refused" role="alert" id={refusedId} key={refused.choice}>
          {refused.text}
        </p>
      ) : null}
      <p className="photos-input__count">
        {value.length} of {MAX_LISTING_PHOTOS} photos{full ? ' (full)' : ''}
      </p>
      {value.length > 0 ? (
        <ol className="photos-input__list" ref={list} aria-label="Chosen photos, in order">
          {value.map((photo, index) => (
            <li
              key={keyOf(photo)}
              tabIndex={-1}
              className={`photos-input__item${dragFrom === index ? ' photos-input__item--dragging' : ''}`}
              draggable
              onDragStart={(event) => {
                event.dataTransfer.effectAllowed = 'move';
                // Firefox starts a drag only when it carries data.
                event.dataTransfer.setData('text/plain', String(index));
                setDragFrom(index);
              }}
              onDragOver={(event) => event.preventDefault()}
              onDrop={(event) => drop(event, index)}
              onDragEnd={() => setDragFrom(null)}
            >
              <Preview photo={photo} alt={`Photo ${index + 1}: ${photo.name}`} />
              {index === 0 ? <span className="photos-input__cover">Cover</span> : null}
              <div className="photos-input__actions">
                <Button
                  size="small"
                  icon={<ArrowLeftOutlined />}
                  data-action="left"
                  aria-label={`Move photo ${index + 1} left`}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1, 'left')}
                />
                <Button
                  size="small"
                  icon={<ArrowRightOutlined />}
                  data-action="right"
                  aria-label={`Move photo ${index + 1} right`}
                  disabled={index === value.length - 1}
                  onClick={() => move(index, index + 1, 'right')}
                />
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  data-action="remove"
                  aria-label={`Remove photo ${index + 1}`}
                  onClick={() => remove(index)}
                />
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </div>
  );
}
