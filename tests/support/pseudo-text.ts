/**
 * What a page in the pseudo-locale shows outside the string layer: the check the UI-language
 * end-to-end tests share. Test-only.
 */
import type { Page } from 'playwright-core';

/**
 * Visible text (and the titles, labels and placeholders a user reads) that is English outside the
 * pseudo-locale's marks. Exempt: what is the same in every language (`translate="no"`: product,
 * tool and field names), captured content (`.ltr-content`), and text with no letters (numbers, signs).
 */
export function unmarkedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const MARK = /[[\]áéíóúÁÉÍÓÚçñ]/;
    const exempt = (el: Element | null) => !!el?.closest('[translate="no"], .ltr-content, script, style');
    const needsMark = (text: string) => /[A-Za-z]{2,}/.test(text) && !MARK.test(text);
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent?.trim() ?? '';
      if (!text || !el || exempt(el)) continue;
      const visible = el.getClientRects().length > 0 || el.closest('select') !== null;
      if (visible && needsMark(text)) out.push(text);
    }
    for (const el of document.body.querySelectorAll('[title], [aria-label], [placeholder]')) {
      if (exempt(el)) continue;
      for (const attr of ['title', 'aria-label', 'placeholder']) {
        const v = el.getAttribute(attr);
        if (v && needsMark(v)) out.push(`${attr}="${v}"`);
      }
    }
    return out;
  });
}
