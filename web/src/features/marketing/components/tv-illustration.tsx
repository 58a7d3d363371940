/** A flat TV drawn in SVG, since the app ships no remote images (the shop may run offline). */
export function TvIllustration({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 320 240" role="img" aria-label="A television set">
      <defs>
        <linearGradient id="tv-screen" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#5eead4" />
          <stop offset="0.55" stopColor="#0ea5e9" />
          <stop offset="1" stopColor="#6366f1" />
        </linearGradient>
      </defs>
      <rect x="20" y="20" width="280" height="170" rx="14" fill="#0f172a" />
      <rect x="32" y="32" width="256" height="146" rx="6" fill="url(#tv-screen)" />
      <path d="M32 150 L110 90 L160 130 L210 80 L288 140 L288 178 L32 178 Z" fill="#0f172a" opacity="0.25" />
      <circle cx="240" cy="70" r="16" fill="#fef08a" opacity="0.9" />
      <rect x="140" y="190" width="40" height="22" fill="#1e293b" />
      <rect x="95" y="210" width="130" height="10" rx="5" fill="#1e293b" />
    </svg>
  );
}
