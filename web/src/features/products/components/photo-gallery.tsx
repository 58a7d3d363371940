import { ExpandIcon, LeftIcon, RightIcon } from '@/components/ui/icons';
import { useBrokenImage } from '@/components/ui/use-broken-image';
import { useRef, useState, type KeyboardEvent } from 'react';
import { MissingPhoto } from './missing-photo';
import { galleryPhoto, type ProductPhoto } from '../photos';
/** The 4:3 box a photo is shown in (styles.css), declared so the page keeps its place before it loads. */
const PHOTO_BOX = { width: 1200, height: 900 } as const;

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** One photo whole (never cropped); a tap opens it full size in a new tab. */
function Slide({
  photo,
  index,
  count,
  name,
  current,
}: {
  photo: ProductPhoto;
  index: number;
  count: number;
  name: string;
  current: boolean;
}) {
  const { broken, onError } = useBrokenImage(photo.url);
  const alt = count === 1 ? name : `${name}, photo ${index + 1} of ${count}`;
  const label = count === 1 ? `Open the photo of ${name} full size` : `Open photo ${index + 1} of ${count} of ${name} full size`;
  return (
    <a
      className={count === 1 ? 'product-page__photo' : 'product-page__photo photo-gallery__slide'}
      href={photo.url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label}
      // Only the photo in view is in the tab order; the buttons and dots reach the others.
      tabIndex={current ? 0 : -1}
      aria-hidden={current ? undefined : true}
    >
      {broken ? (
        <MissingPhoto alt={alt} />
      ) : (
        <img
          {...galleryPhoto(photo)}
          onError={onError}
          width={PHOTO_BOX.width}
          height={PHOTO_BOX.height}
          alt={alt}
          loading={index === 0 ? 'eager' : 'lazy'}
          fetchPriority={index === 0 ? 'high' : 'auto'}
        />
      )}
      <span className="product-page__zoom" aria-hidden="true">
        <ExpandIcon /> Full size
      </span>
    </a>
  );
}

/**
 * A product's photos large, one at a time: swiped on a phone (a CSS scroll-snap strip), or
 * stepped with the previous and next buttons, the dots, or the arrow keys.
 */
export function PhotoGallery({ photos, name }: { photos: ProductPhoto[]; name: string }) {
  const track = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  // The photo a button asked for, until the strip gets there: the photos it passes on the way
  // must not flicker through the counter and the dots.
  const heading = useRef<number | null>(null);
  const count = photos.length;

  const show = (index: number) => {
    const el = track.current;
    const to = Math.max(0, Math.min(count - 1, index));
    if (!el) return;
    heading.current = to;
    el.scrollTo({ left: to * el.clientWidth, behavior: reducedMotion() ? 'auto' : 'smooth' });
    setCurrent(to);
  };
  // A swipe says which photo is in view.
  const followScroll = () => {
    const el = track.current;
    if (!el || el.clientWidth === 0) return;
    if (heading.current !== null) {
      if (Math.abs(el.scrollLeft - heading.current * el.clientWidth) < 2) heading.current = null;
      return;
    }
    setCurrent(Math.max(0, Math.min(count - 1, Math.round(el.scrollLeft / el.clientWidth))));
  };
  // A finger or a wheel takes over from a scroll a button started.
  const userScrolls = () => (heading.current = null);
  const keys = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    show(current + (event.key === 'ArrowLeft' ? -1 : 1));
  };

  if (count === 1) return <Slide photo={photos[0]!} index={0} count={1} name={name} current />;
  return (
    <section className="photo-gallery" aria-roledescription="carousel" aria-label={`Photos of ${name}`} onKeyDown={keys}>
      <div className="photo-gallery__frame">
        <div
          className="photo-gallery__track"
          ref={track}
          onScroll={followScroll}
          onPointerDown={userScrolls}
          onTouchStart={userScrolls}
          onWheel={userScrolls}
        >
          {photos.map((photo, index) => (
            <Slide key={`${index}-${photo.url}`} photo={photo} index={index} count={count} name={name} current={index === current} />
          ))}
        </div>
        <p className="photo-gallery__count" aria-live="polite">
          Photo {current + 1} of {count}
        </p>
        <button
          type="button"
          className="photo-gallery__step photo-gallery__step--previous"
          aria-label="Previous photo"
          disabled={current === 0}
          onClick={() => show(current - 1)}
        >
          <LeftIcon />
        </button>
        <button
          type="button"
          className="photo-gallery__step photo-gallery__step--next"
          aria-label="Next photo"
          disabled={current === count - 1}
          onClick={() => show(current + 1)}
        >
          <RightIcon />
        </button>
      </div>
      <div className="photo-gallery__dots">
        {photos.map((photo, index) => (
          <button
            key={`${index}-${photo.url}`}
            type="button"
            className="photo-gallery__dot"
            aria-label={`Show photo ${index + 1} of ${count}`}
            aria-current={index === current ? 'true' : undefined}
            onClick={() => show(index)}
          />
        ))}
      </div>
    </section>
  );
}
