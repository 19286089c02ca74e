/** Toolbar popup (extension privileges): usage-only live feed, so it never receives exchange summaries or bodies. */
import PopupApp from '@/components/popup/PopupApp.vue';
import { mountPage } from '@/lib/mount-page';

void mountPage(PopupApp, { feed: 'usage' });
