import { UserIcon } from './icons';
import './stack-table.css';

/** A row's picture in a dashboard table (a TV's cover, a person's photo), or a placeholder. */
export function RowAvatar({ src, alt }: { src?: string; alt: string }) {
  return (
    <span className="row-avatar">
      {src ? (
        <img src={src} alt={alt} width={48} height={48} loading="lazy" />
      ) : (
        <span role="img" aria-label={alt}>
          <UserIcon />
        </span>
      )}
    </span>
  );
}
