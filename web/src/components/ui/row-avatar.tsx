import { useState } from 'react';
import { UserIcon } from './icons';
import './stack-table.css';

/** A row's picture in a dashboard table (a TV's cover, a person's photo), or a placeholder when it has none or it cannot be loaded. */
export function RowAvatar({ src, alt }: { src?: string; alt: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <span className="row-avatar">
      {src && failed !== src ? (
        <img src={src} alt={alt} width={48} height={48} loading="lazy" onError={() => setFailed(src)} />
      ) : (
        <span role="img" aria-label={alt}>
          <UserIcon />
        </span>
      )}
    </span>
  );
}
