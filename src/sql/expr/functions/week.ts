/** MySQL's calc_week(): WEEK(), YEARWEEK(), WEEKOFYEAR() and the %U %u %V %v %X %x format specifiers. */
import type { DateTime } from '../../../types/index.js';
import { daysFromCivil, isLeapYear } from '../date-math.js';

const MONDAY_FIRST = 1;
const WEEK_YEAR = 2;
const FIRST_WEEKDAY = 4;

/** WEEK(d, mode)'s mode as calc_week flags. */
export function weekMode(mode: number): number {
  let f = mode & 7;
  if (!(f & MONDAY_FIRST)) f ^= FIRST_WEEKDAY;
  return f;
}

function daysInYear(y: number): number {
  return isLeapYear(y) ? 366 : 365;
}

function weekdayOf(daynr: number, sundayFirst: boolean): number {
  return (daynr + 5 + (sundayFirst ? 1 : 0)) % 7;
}

/** [week, year the week belongs to] for calc_week flags. */
export function calcWeek(dt: DateTime, flags: number): [number, number] {
  const daynr = daysFromCivil(dt.year, dt.month, dt.day);
  let firstDaynr = daysFromCivil(dt.year, 1, 1);
  const mondayFirst = (flags & MONDAY_FIRST) !== 0;
  let weekYear = (flags & WEEK_YEAR) !== 0;
  const firstWeekday = (flags & FIRST_WEEKDAY) !== 0;
  let weekday = weekdayOf(firstDaynr, !mondayFirst);
  let year = dt.year;
  if (dt.month === 1 && dt.day <= 7 - weekday) {
    if (!weekYear && ((firstWeekday && weekday !== 0) || (!firstWeekday && weekday >= 4))) return [0, year];
    weekYear = true;
    year--;
    const days = daysInYear(year);
    firstDaynr -= days;
    weekday = (weekday + 53 * 7 - days) % 7;
  }
  let days: number;
  if ((firstWeekday && weekday !== 0) || (!firstWeekday && weekday >= 4)) days = daynr - (firstDaynr + (7 - weekday));
  else days = daynr - (firstDaynr - weekday);
  if (weekYear && days >= 52 * 7) {
    weekday = (weekday + daysInYear(year)) % 7;
    if ((!firstWeekday && weekday < 4) || (firstWeekday && weekday === 0)) return [1, year + 1];
  }
  return [Math.floor(days / 7) + 1, year];
}
