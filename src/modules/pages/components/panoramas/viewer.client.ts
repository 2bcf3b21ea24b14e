import { el } from '../../client/dom.js';
import type { Words } from '../../client/words.js';
// The 360° viewer: its own bundle (viewer.<hash>.js), imported by components/panoramas/client.ts only when a buyer
// opens a panorama, so the page's first load carries none of it. A WebGL fragment shader draws the
// equirectangular image on a full-screen quad (each pixel's ray turned by the view, then its longitude
// and latitude read from the image); portals and points of interest are buttons placed over it by the
// same projection (shared/panorama.ts). Without WebGL, or when the image refuses to be a texture (another
// origin without CORS), the flat image is shown with a message, and the portals stay usable as buttons.
import { FOV, type View, type ViewerPanorama, clampPitch, linkText, poiLinks, project, wrapYaw, zoomFov } from '../../shared/panorama.js';

const VERTEX = 'attribute vec2 p;varying vec2 v;void main(){v=p;gl_Position=vec4(p,0.,1.);}';
// s: tan of half the horizontal and vertical fields of view; a: the view's yaw and pitch (up positive), radians.
const FRAGMENT = `#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif
varying vec2 v;uniform sampler2D t;uniform vec2 s;uniform vec2 a;
void main(){vec3 r=vec3(v*s,1.);float cp=cos(a.y),sp=sin(a.y),cy=cos(a.x),sy=sin(a.x);
vec3 q=vec3(r.x,r.y*cp+r.z*sp,r.z*cp-r.y*sp);vec3 w=vec3(q.x*cy+q.z*sy,q.y,q.z*cy-q.x*sy);
gl_FragColor=texture2D(t,vec2(.5+atan(w.x,w.z)/6.2831853,.5-atan(w.y,length(w.xz))/3.1415927));}`;

const RAD = Math.PI / 180;
const KEY_STEP = 5;

interface Renderer {
  upload(image: HTMLImageElement): boolean;
  draw(view: View, ratio: number): void;
  dispose(): void;
}

function renderer(canvas: HTMLCanvasElement): Renderer | null {
  const gl = canvas.getContext('webgl', { antialias: false, alpha: false }) as WebGLRenderingContext | null;
  if (!gl) return null;
  const program = gl.createProgram();
  if (!program) return null;
  for (const [type, source] of [
    [gl.VERTEX_SHADER, VERTEX],
    [gl.FRAGMENT_SHADER, FRAGMENT],
  ] as const) {
    const shader = gl.createShader(type);
    if (!shader) return null;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) return null;
  gl.useProgram(program);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
  const position = gl.getAttribLocation(program, 'p');
  gl.enableVertexAttribArray(position);
  gl.vertexAttribPointer(position, 2, gl.FLOAT, false, 0, 0);
  gl.bindTexture(gl.TEXTURE_2D, gl.createTexture());
  // Any size of image (WebGL 1 repeats and mipmaps only powers of two): clamped, linear.
  for (const [name, value] of [
    [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE],
    [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE],
    [gl.TEXTURE_MIN_FILTER, gl.LINEAR],
    [gl.TEXTURE_MAG_FILTER, gl.LINEAR],
  ] as Array<[number, number]>) {
    gl.texParameteri(gl.TEXTURE_2D, name, value);
  }
  const half = gl.getUniformLocation(program, 's');
  const angles = gl.getUniformLocation(program, 'a');
  const largest = Number(gl.getParameter(gl.MAX_TEXTURE_SIZE)) || 4096;
  return {
    upload(image) {
      try {
        let source: HTMLImageElement | HTMLCanvasElement = image;
        // An image wider than the GPU takes (8K panoramas on phones) is drawn smaller first.
        if (image.naturalWidth > largest) {
          const smaller = el('canvas', { width: String(largest), height: String(largest / 2) });
          smaller.getContext('2d')?.drawImage(image, 0, 0, largest, largest / 2);
          source = smaller;
        }
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGB, gl.RGB, gl.UNSIGNED_BYTE, source);
        return gl.getError() === gl.NO_ERROR;
      } catch {
        return false; // a cross-origin image without CORS: never a texture
      }
    },
    draw(view, ratio) {
      const width = Math.max(1, Math.round(view.width * ratio));
      const height = Math.max(1, Math.round(view.height * ratio));
      if (canvas.width !== width || canvas.height !== height) {
        canvas.width = width;
        canvas.height = height;
      }
      gl.viewport(0, 0, width, height);
      const tan = Math.tan((view.fov * RAD) / 2);
      gl.uniform2f(half, (tan * view.width) / view.height, tan);
      gl.uniform2f(angles, view.yaw * RAD, -view.pitch * RAD);
      gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    },
    dispose() {
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    },
  };
}

/** The image of `src`, asked for with CORS (a texture needs it), or null when it does not load. */
async function loadImage(src: string): Promise<HTMLImageElement | null> {
  const image = new Image();
  image.crossOrigin = 'anonymous';
  image.src = src;
  try {
    await image.decode();
    return image;
  } catch {
    return null;
  }
}

let closeOpen: (() => void) | undefined;

/**
 * Opens the viewer in `host` (the panoramas section), before its list, on panorama `startId`: a region
 * "360° view" holding the picture (a focusable group: drag or arrow keys look around, the wheel, a pinch,
 * + and − zoom, Escape closes), the markers, the panorama's name, and Zoom in, Zoom out and Close.
 */
export function openViewer(host: HTMLElement, panoramas: ViewerPanorama[], startId: string, words: Words, onClose: () => void): void {
  closeOpen?.();
  const byId = new Map(panoramas.map((p) => [p.id, p]));
  const region = el('div', { class: 'pano-viewer', role: 'region', 'aria-label': words('panoramaView') });
  const hint = el('p', { class: 'pano-hint', id: 'pano-hint' }, words('lookAround'));
  const stage = el('div', { class: 'pano-stage', tabindex: '0', role: 'group', 'aria-describedby': 'pano-hint' });
  const canvas = el('canvas', { 'aria-hidden': 'true' });
  const markers = el('div', { class: 'pano-markers' });
  const title = el('p', { class: 'pano-name', 'aria-live': 'polite' });
  // What a point of interest's button reveals: its name and its links (under the picture, never over it).
  const info = el('div', { class: 'pano-poi-info', id: 'pano-poi-info', hidden: '' });
  const tools = el('div', { class: 'pano-tools' });
  const zoomIn = el('button', { type: 'button' }, words('zoomIn'));
  const zoomOut = el('button', { type: 'button' }, words('zoomOut'));
  const close = el('button', { type: 'button', class: 'pano-close' }, words('close'));
  tools.append(zoomIn, zoomOut, close);
  stage.append(canvas, markers);
  region.append(title, stage, info, hint, tools);
  host.insertBefore(region, host.querySelector('.panorama-list'));

  const gl = renderer(canvas);
  const view: View = { yaw: 0, pitch: 0, fov: FOV.start, width: 1, height: 1 };
  let flat = gl === null;
  let frame = 0;
  const placed: Array<{ node: HTMLElement; yaw: number; pitch: number }> = [];

  const draw = () => {
    frame = 0;
    view.width = stage.clientWidth || 1;
    view.height = stage.clientHeight || 1;
    if (!flat) gl?.draw(view, Math.min(window.devicePixelRatio || 1, 2));
    for (const marker of placed) {
      const at = flat ? null : project(marker.yaw, marker.pitch, view);
      // Behind the viewer or off the picture: hidden (and out of the tab order) until looked at.
      marker.node.hidden = !flat && at === null;
      if (at) marker.node.style.transform = `translate(${Math.round(at.x)}px,${Math.round(at.y)}px) translate(-50%,-50%)`;
      else marker.node.style.transform = '';
    }
  };
  const redraw = () => {
    frame ||= requestAnimationFrame(draw);
  };
  const look = (yaw: number, pitch: number) => {
    view.yaw = wrapYaw(yaw);
    view.pitch = clampPitch(pitch);
    redraw();
  };
  const zoom = (factor: number) => {
    view.fov = zoomFov(view.fov, factor);
    redraw();
  };

  /** The flat image and the message, in place of the picture (no WebGL, or no texture of this image). */
  const showFlat = (p: ViewerPanorama) => {
    flat = true;
    region.classList.add('is-flat');
    stage.removeAttribute('aria-describedby'); // the hint is about turning, which the flat image does not
    canvas.hidden = true;
    stage.querySelector('img')?.remove();
    if (!region.querySelector('.pano-message')) stage.before(el('p', { class: 'pano-message', role: 'status' }, words('noWebgl')));
    stage.prepend(el('img', { src: p.src, alt: p.name }));
    redraw();
  };

  let loading = 0;
  const show = async (id: string) => {
    const p = byId.get(id);
    if (!p) return;
    const ticket = ++loading;
    title.textContent = p.name;
    stage.setAttribute('aria-label', p.name);
    view.fov = FOV.start;
    look(p.yaw, p.pitch);
    markers.replaceChildren();
    placed.length = 0;
    for (const portal of p.portals) {
      const button = el('button', { type: 'button', class: 'pano-portal' }, portal.name);
      button.addEventListener('click', () => {
        void show(portal.to);
        stage.focus();
      });
      placed.push({ node: button, yaw: portal.yaw, pitch: portal.pitch });
    }
    info.hidden = true;
    info.replaceChildren();
    for (const poi of p.pois) {
      // A point's label is its button's text; pressing it turns the view to face it and shows its name and
      // links under the picture (pressed again, it hides them).
      const button = el('button', { type: 'button', class: 'pano-poi', 'aria-expanded': 'false', 'aria-controls': info.id }, poi.name);
      button.addEventListener('click', () => {
        const open = button.getAttribute('aria-expanded') !== 'true';
        for (const other of markers.querySelectorAll('.pano-poi')) other.setAttribute('aria-expanded', 'false');
        button.setAttribute('aria-expanded', String(open));
        info.hidden = !open;
        if (!open) return;
        look(poi.yaw, poi.pitch);
        const links = poiLinks(poi.urls).map((href) => {
          // Another site: a new tab, with no way back into this page (noopener) and no referrer; the words say so.
          const a = el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, linkText(href));
          a.append(el('span', { class: 'visually-hidden' }, ` ${words('newTab')}`));
          const item = el('li');
          item.append(a);
          return item;
        });
        const list = el('ul');
        list.append(...links);
        info.replaceChildren(el('p', { class: 'pano-poi-name' }, poi.name), ...(links.length > 0 ? [list] : []));
      });
      placed.push({ node: button, yaw: poi.yaw, pitch: poi.pitch });
    }
    markers.append(...placed.map((m) => m.node));
    if (flat) return showFlat(p);
    region.setAttribute('aria-busy', 'true');
    const image = await loadImage(p.src);
    if (ticket !== loading) return;
    region.removeAttribute('aria-busy');
    if (!image || !gl?.upload(image)) return showFlat(p);
    redraw();
  };

  // Looking around: a drag (one pointer) turns the view, two pointers pinch-zoom.
  const pointers = new Map<number, { x: number; y: number }>();
  let pinch = 0;
  stage.addEventListener('pointerdown', (event) => {
    if ((event.target as Element).closest('button') || flat) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    stage.setPointerCapture(event.pointerId);
    pinch = 0;
  });
  stage.addEventListener('pointermove', (event) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const now = { x: event.clientX, y: event.clientY };
    if (pointers.size === 1) {
      const degrees = view.fov / view.height;
      look(view.yaw - (now.x - last.x) * degrees, view.pitch - (now.y - last.y) * degrees);
    }
    pointers.set(event.pointerId, now);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch > 0 && distance > 0) zoom(pinch / distance);
      pinch = distance;
    }
  });
  const release = (event: PointerEvent) => {
    pointers.delete(event.pointerId);
    pinch = 0;
  };
  stage.addEventListener('pointerup', release);
  stage.addEventListener('pointercancel', release);
  stage.addEventListener(
    'wheel',
    (event) => {
      if (flat) return;
      event.preventDefault();
      zoom(Math.exp(Math.max(-100, Math.min(100, event.deltaY)) * 0.002));
    },
    { passive: false },
  );
  region.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      closeOpen?.();
      return;
    }
    if (event.target !== stage || event.altKey || event.ctrlKey || event.metaKey || flat) return;
    const turns: Record<string, [number, number]> = { ArrowLeft: [-KEY_STEP, 0], ArrowRight: [KEY_STEP, 0], ArrowUp: [0, -KEY_STEP], ArrowDown: [0, KEY_STEP] };
    const turn = turns[event.key];
    if (turn) look(view.yaw + turn[0], view.pitch + turn[1]);
    else if (event.key === '+' || event.key === '=') zoom(0.8);
    else if (event.key === '-' || event.key === '_') zoom(1.25);
    else return;
    event.preventDefault();
  });
  zoomIn.addEventListener('click', () => zoom(0.8));
  zoomOut.addEventListener('click', () => zoom(1.25));
  close.addEventListener('click', () => closeOpen?.());
  const resized = new ResizeObserver(redraw);
  resized.observe(stage);

  closeOpen = () => {
    closeOpen = undefined;
    loading++;
    resized.disconnect();
    if (frame) cancelAnimationFrame(frame);
    gl?.dispose();
    region.remove();
    onClose();
  };
  void show(byId.has(startId) ? startId : (panoramas[0]?.id ?? ''));
  region.scrollIntoView({ block: 'nearest' });
  stage.focus({ preventScroll: true });
}
