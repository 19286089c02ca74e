/** DevTools page (runs once per inspected tab, extension privileges): registers the "Codex" panel. */
browser.devtools.panels.create('Codex', '', '/devtools-panel.html');
