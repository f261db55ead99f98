/**
 * Lookups in ref listings sorted by name bytes (`listRefs`, `packed-refs`): a binary search
 * instead of a pass over tens of thousands of names.
 */
import { compareUtf8 } from '@forge-httpd/identity';

/** The first index at or after `from` of `entries` (sorted by name bytes) whose name does not sort before `name`. */
export function firstNameNotBefore(entries: ReadonlyArray<{ name: string }>, name: string, from = 0): number {
  let low = from;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareUtf8((entries[middle] as { name: string }).name, name) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The first index at or after `from` past every name that starts with `folder` + `/`: `0`
 * follows `/` in byte order, so nothing lies between the folder's last name and `folder0`.
 */
export function firstNameAfterFolder(entries: ReadonlyArray<{ name: string }>, folder: string, from = 0): number {
  return firstNameNotBefore(entries, `${folder}0`, from);
}
