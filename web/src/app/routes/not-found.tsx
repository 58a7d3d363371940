import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { usePageTitle } from '@/lib/use-page-title';

/** A TV with animated static: the 404 page's animation, drawn in SVG and CSS. */
export function NotFoundPage() {
  usePageTitle(paths.notFound.title);
  return (
    <div className="page not-found">
      <svg className="not-found__tv" viewBox="0 0 240 200" role="img" aria-label="A TV showing static">
        <line x1="90" y1="10" x2="115" y2="38" stroke="#334155" strokeWidth="4" strokeLinecap="round" />
        <line x1="150" y1="10" x2="125" y2="38" stroke="#334155" strokeWidth="4" strokeLinecap="round" />
        <rect x="20" y="38" width="200" height="140" rx="16" fill="#1e293b" />
        <rect x="36" y="52" width="168" height="112" rx="8" fill="#0f172a" />
        <g className="not-found__static">
          <rect x="36" y="62" width="168" height="6" fill="#94a3b8" />
          <rect x="36" y="90" width="168" height="4" fill="#cbd5e1" />
          <rect x="36" y="120" width="168" height="8" fill="#64748b" />
          <rect x="36" y="146" width="168" height="3" fill="#e2e8f0" />
        </g>
        <text x="120" y="118" textAnchor="middle" className="not-found__code">
          404
        </text>
      </svg>
      <h1>Page Not Found</h1>
      <p>The channel you are looking for is off the air.</p>
      <Link className="button-link" to={paths.home.href()}>
        Back to Home
      </Link>
    </div>
  );
}
