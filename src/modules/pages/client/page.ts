// The public page's islands: each enhances server-rendered HTML that already works without JavaScript
// (STYLE.md "The public page"). Loaded as `<script type="module" src="/assets/page/page.<hash>.js">`.
import { $, $$ } from './dom.js';
import { initForm } from './form.js';
import { initLightbox } from './lightbox.js';
import { initFilters, initSelection } from './list.js';
import { initMap } from './map.js';
import { NAVIGATOR, type Navigator, initNavigator } from './navigator.js';
import { initPlaceholders } from './placeholders.js';
import { initResize } from './resize.js';

document.documentElement.classList.add('js');
initPlaceholders();
const navigators = $$(NAVIGATOR)
  .map(initNavigator)
  .filter((n): n is Navigator => n !== null);
initSelection(navigators);
for (const form of $$<HTMLFormElement>('form[data-apartment-filters], #apartments form.filters')) initFilters(form);
for (const gallery of $$('[data-gallery]')) initLightbox(gallery);
for (const button of $$<HTMLButtonElement>('button.show-map, button[data-map-show]')) initMap(button);
const inquiry = $('form[data-inquiry-form]')?.closest<HTMLElement>('[id]');
if (inquiry) initForm(inquiry);
initResize();
