/** A list's kept counts of its contacts, and how contacts move them. */

/** How contacts move a list's counts: +1 for what one adds, -1 for what one takes away. */
export interface CountDelta {
  total: number;
  email: number;
  phone: number;
  unsubscribed: number;
  bounced: number;
  blocked: number;
}

export const zeroCounts: CountDelta = { total: 0, email: 0, phone: 0, unsubscribed: 0, bounced: 0, blocked: 0 };

export function sumCounts(a: CountDelta, b: CountDelta): CountDelta {
  return {
    total: a.total + b.total,
    email: a.email + b.email,
    phone: a.phone + b.phone,
    unsubscribed: a.unsubscribed + b.unsubscribed,
    bounced: a.bounced + b.bounced,
    blocked: a.blocked + b.blocked,
  };
}

/** What one contact counts for in its list (nothing for no contact). */
export function countsOf(contact: { email: string | null; phone: string | null; status: string } | null): CountDelta {
  return {
    total: contact ? 1 : 0,
    email: contact?.email ? 1 : 0,
    phone: contact?.phone ? 1 : 0,
    unsubscribed: contact?.status === 'unsubscribed' ? 1 : 0,
    bounced: contact?.status === 'bounced' ? 1 : 0,
    blocked: contact?.status === 'blocked' ? 1 : 0,
  };
}
