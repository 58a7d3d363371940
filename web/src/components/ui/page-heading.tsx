/** The two-line headings of the spec, e.g. 'All PRODUCTS' over 'All Our Resale Products'. */
export function PageHeading({ kicker, title }: { kicker: string; title: string }) {
  return (
    <header className="section-heading">
      <p className="section-heading__kicker">{kicker}</p>
      <h1>{title}</h1>
    </header>
  );
}
