import { UserIcon } from './icons';
import { useBrokenImage } from './use-broken-image';
import './stack-table.css';

/** A row's picture in a dashboard table (a TV's cover, a person's photo), or a placeholder when it has none or it cannot be loaded. */
export function RowAvatar({ src, alt }: { src?: string; alt: string }) {
  const { broken, onError } = useBrokenImage(src);
  return (
    <span className="row-avatar">
      {src && !broken ? (
        <img src={src} alt={alt} width={48} height={48} loading="lazy" onError={onError} />
      ) : (
        <span role="img" aria-label={alt}>
          <UserIcon />
        </span>
      )}
    </span>
  );
}
