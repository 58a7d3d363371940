export function DiscountPromo() {
  return (
    <section className="discount-promo" aria-labelledby="promo-heading">
      <div className="discount-promo__badge" aria-hidden="true">
        <span>UP TO</span>
        <strong>40%</strong>
        <span>OFF</span>
      </div>
      <div>
        <h2 id="promo-heading">Get a discount on your next TV</h2>
        <p>
          Used sets sell for a fraction of their original price. Compare the resale price with the original on every card and book the one
          you like: several buyers may book a set, and the first to pay for it takes it home.
        </p>
      </div>
    </section>
  );
}
