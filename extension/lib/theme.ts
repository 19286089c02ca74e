/**
 * Light or dark to match DevTools: the panel asks `devtools.panels.themeName` (only panel pages
 * have it) and follows its changes; other pages follow `prefers-color-scheme` through CSS.
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

/** In a DevTools panel: follow the DevTools theme. Elsewhere: nothing to do (CSS media queries decide). */
export function followDevtoolsTheme(): void {
  let panels: { themeName?: string; onThemeChanged?: { addListener(cb: (name: string) => void): void } } | undefined;
  try {
    panels = browser.devtools?.panels;
  } catch {
    panels = undefined; // opened as a plain tab (tests, previews): no devtools API
  }
  if (!panels) return;
  applyTheme(themeFromDevtools(panels.themeName));
  panels.onThemeChanged?.addListener((name) => applyTheme(themeFromDevtools(name)));
}
