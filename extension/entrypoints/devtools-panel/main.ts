/** The "Codex" DevTools panel page (extension privileges, inside DevTools): mounts the panel app. */
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';

createApp(App).use(createPinia()).mount('#app');
