/** What a card form reports back: the succeeded intent's id, or the provider's message. */
export type CardOutcome = { paymentIntentId: string } | { error: string };

export interface CardFormProps {
  clientSecret: string | null;
  billing: { name: string; email: string };
  onOutcome: (outcome: CardOutcome) => Promise<void>;
  /** The card was edited: a refusal of the card as it was (declined) no longer applies. */
  onEdit?: () => void;
  /**
   * A payment is on its way (confirmed by the provider, then recorded by the shop): kept by the
   * page, which keeps the form on screen until its outcome even if the booking closes meanwhile.
   */
  busy: boolean;
  /**
   * Starts a payment: false, and nothing starts, while one is on its way (a second Pay or Enter
   * before the page has drawn the first as busy). `end` when its outcome is in.
   */
  begin: () => boolean;
  end: () => void;
}
