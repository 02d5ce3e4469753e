import { z } from 'zod';

/** The first day a query may name: the site counts nothing older (issue 56). */
export const EARLIEST_DAY = '2000-01-01';

/** The day (UTC) of `now`, as YYYY-MM-DD. */
export function dayOfDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The last day a query may name: tomorrow in UTC, since a reader east of Greenwich may be there already. */
export function latestDay(now = new Date()): string {
  return dayOfDate(new Date(now.getTime() + 86_400_000));
}

/** `YYYY-MM-DD` naming a day the calendar has: the date parser rolls 2026-02-30 over to March; this does not. */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && dayOfDate(date) === value;
}

/**
 * A query's day, `name=YYYY-MM-DD`: a real calendar day from 2000-01-01 to tomorrow (UTC). Days
 * outside that window (`9999-12-31`, `0001-01-01`) made ranges whose ends the date arithmetic
 * wrote as `+010000-…` or `-000001-…`, which the database refused with a 500 (issue 56).
 */
export function calendarDaySchema(name: string) {
  return z.string().superRefine((value, ctx) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a date as YYYY-MM-DD, such as 2026-03-01.` });
    } else if (!isCalendarDay(value)) {
      ctx.addIssue({ code: 'custom', message: `${name} ${value} is not a day of the calendar.` });
    } else if (value < EARLIEST_DAY || value > latestDay()) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a day from ${EARLIEST_DAY} to ${latestDay()}; ${value} is not.` });
    }
  });
}
