/** Toolbar popup (extension privileges): mounts the popup app. */
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';

createApp(App).use(createPinia()).mount('#app');
