/** Keyboard movement in the exchange list, as in the Network panel: arrows, j/k, Page Up/Down, Home/End. */

/** The index a key moves the selection to, or null when the key does not move it. */
export function nextIndex(key: string, current: number | null, count: number, page: number): number | null {
  if (count === 0) return null;
  const at = current ?? -1;
  const clamp = (i: number) => Math.min(count - 1, Math.max(0, i));
  switch (key) {
    case 'ArrowDown':
    case 'j':
      return clamp(at + 1);
    case 'ArrowUp':
    case 'k':
      return clamp(current === null ? 0 : at - 1);
    case 'PageDown':
      return clamp(at + page);
    case 'PageUp':
      return clamp(at - page);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
