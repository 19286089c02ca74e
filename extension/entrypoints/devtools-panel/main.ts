/** The "Codex" DevTools panel page (extension privileges, inside DevTools or as a tab): full live feed, DevTools theme. */
import PanelApp from '@/components/panel/PanelApp.vue';
import { mountPage } from '@/lib/mount-page';

void mountPage(PanelApp, { feed: 'full' });
