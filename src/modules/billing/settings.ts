// What billing does to a client's sites and account, per organization (Settings → Billing), each
// off by default, and the currency its plans are billed in. Kept as JSON on the organization.
import { invalid } from '../common/errors.ts';

export interface BillingSettings {
  /** ISO 4217, lower case, as Stripe writes it. */
  currency: string;
  /** Publish the client's sites when its first invoice is paid. */
  publish_on_first_payment: boolean;
  /** Suspend the client (its portal shows a payment page) when its subscription ends. */
  suspend_on_cancel: boolean;
  /** Unpublish the client's sites when its subscription ends. */
  unpublish_on_cancel: boolean;
  /** The same as cancel after this many days past due; null: never. */
  past_due_days: number | null;
  /** Republish and reactivate a client the automations stopped, when it pays again. */
  restore_on_payment: boolean;
}

export const DEFAULT_BILLING_SETTINGS: BillingSettings = {
  currency: 'usd',
  publish_on_first_payment: false,
  suspend_on_cancel: false,
  unpublish_on_cancel: false,
  past_due_days: null,
  restore_on_payment: false,
};

/** Currencies whose minor unit is the unit itself (Stripe's zero-decimal list). */
const ZERO_DECIMAL = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' '));

/** A plan's price in the currency's minor unit, as Stripe takes it. */
export function minorUnits(price: number, currency: string): number {
  return ZERO_DECIMAL.has(currency) ? Math.round(price) : Math.round(price * 100);
}

/** An amount in minor units, for people: "€29.00", "¥500". */
export function formatAmount(amount: number, currency: string): string {
  const value = ZERO_DECIMAL.has(currency) ? amount : amount / 100;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(value);
  } catch {
    return `${value} ${currency.toUpperCase()}`;
  }
}

export function readBillingSettings(json: string | null | undefined): BillingSettings {
  let stored: Partial<BillingSettings> = {};
  try {
    stored = JSON.parse(json || '{}') as Partial<BillingSettings>;
  } catch {
    // A damaged value reads as the defaults: every automation off.
  }
  return { ...DEFAULT_BILLING_SETTINGS, ...stored };
}

/** Checks a change of the settings; throws an InvalidInputError naming the field. */
export function checkBillingSettings(change: Partial<BillingSettings>): Partial<BillingSettings> {
  if (change.currency !== undefined) {
    const currency = change.currency.trim().toLowerCase();
    if (!/^[a-z]{3}$/.test(currency))
      throw invalid(`field 'currency' must be a three-letter ISO 4217 code such as usd or eur`);
    change = { ...change, currency };
  }
  const days = change.past_due_days;
  if (days !== undefined && days !== null && (!Number.isInteger(days) || days < 1 || days > 90))
    throw invalid(`field 'past_due_days' must be a whole number of days from 1 to 90, or empty`);
  return change;
}
