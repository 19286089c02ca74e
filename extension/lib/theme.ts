/**
 * Light or dark, as a `theme-light`/`theme-dark` class on <html> that all styles key on: the
 * panel follows the DevTools theme (`devtools.panels.themeName`, only panel pages have it), other
 * pages the system's `prefers-color-scheme`. One class, so each palette is written once.
 */
import { browser } from 'wxt/browser';

export type ThemeName = 'light' | 'dark';

/** DevTools reports `default` for its light theme. */
export const themeFromDevtools = (name: string | undefined | null): ThemeName | null =>
  name === 'dark' ? 'dark' : name === 'default' || name === 'light' ? 'light' : null;

export function applyTheme(theme: ThemeName | null, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('theme-dark', theme === 'dark');
  root.classList.toggle('theme-light', theme === 'light');
}

/** Follows the DevTools theme in a panel, else (or when DevTools gives none) the system's. */
export function followTheme(): void {
  let panels: { themeName?: string; onThemeChanged?: { addListener(cb: (name: string) => void): void } } | undefined;
  try {
    panels = browser.devtools?.panels;
  } catch {
    panels = undefined; // opened as a plain tab (tests, previews): no devtools API
  }
  const system = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
  const fromSystem = (): ThemeName => (system?.matches ? 'dark' : 'light');
  if (panels) {
    applyTheme(themeFromDevtools(panels.themeName) ?? fromSystem());
    panels.onThemeChanged?.addListener((name) => applyTheme(themeFromDevtools(name) ?? fromSystem()));
    return;
  }
  applyTheme(fromSystem());
  system?.addEventListener('change', () => applyTheme(fromSystem()));
}
