import { CameraIcon, UserIcon } from './icons';
import { useBrokenImage } from './use-broken-image';
import './stack-table.css';

/**
 * A row's picture in a dashboard table (a TV's cover, a person's photo), or a placeholder when it
 * has none or it cannot be loaded: a person for a person, a camera for a TV, as the cards show.
 */
export function RowAvatar({ src, alt, of = 'person' }: { src?: string; alt: string; of?: 'person' | 'tv' }) {
  const { broken, onError } = useBrokenImage(src);
  return (
    <span className="row-avatar">
      {src && !broken ? (
        <img src={src} alt={alt} width={48} height={48} loading="lazy" onError={onError} />
      ) : (
        <span role="img" aria-label={alt} className={of === 'tv' ? 'row-avatar__missing-photo' : undefined}>
          {of === 'tv' ? <CameraIcon /> : <UserIcon />}
        </span>
      )}
    </span>
  );
}
