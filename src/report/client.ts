/**
 * The stylesheet and the script of the HTML report, as strings inlined into the page. The script is four parts
 * sharing one closure (core, navigation, lists, minimap); the page admits it by the hash of exactly this string.
 */
import { CLIENT_CORE } from './client-core.js';
import { CLIENT_LIST } from './client-list.js';
import { CLIENT_MINIMAP } from './client-minimap.js';
import { CLIENT_NAVIGATION } from './client-navigation.js';

export { REPORT_CSS } from './client-style.js';

/**
 * Behaviour of the report: hover shows a chunk's facts, click pins it, ‹ › and j / k step through chunks, problem
 * rows, histogram bars, ‹ › and n / p through problems, the minimap and the outline jump, Esc releases, and the
 * views of a comparison scroll together. Written as plain ES2017 so it runs in any current browser from a
 * `file://` URL.
 */
export const REPORT_SCRIPT = `(function () {\n  'use strict';${CLIENT_CORE}${CLIENT_NAVIGATION}${CLIENT_LIST}${CLIENT_MINIMAP}})();\n`;
