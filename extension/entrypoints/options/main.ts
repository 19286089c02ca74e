/** Options page (extension privileges, opened in a tab): pairing from the link the companion prints, manual pairing, doc language. */
import OptionsApp from '@/components/options/OptionsApp.vue';
import { mountPage } from '@/lib/mount-page';

void mountPage(OptionsApp, { feed: null });
