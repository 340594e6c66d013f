#include "page.hpp"

#include <fmt/format.h>

#include "luxel/batch/index_page.hpp"
#include "luxel/render/map_view.hpp"

namespace luxel::serve {

namespace {

// Thumbnails load two at a time (the service renders a few maps at once and answers 503 past its queue);
// a 503 (busy) or 429 (over the render rate limit) is retried after its Retry-After. The title counts what
// loaded, so a headless browser can tell.
constexpr const char* kScript = R"JS(
const figures = [...document.querySelectorAll('figure[data-src]')];
let loaded = 0, failed = 0;
function show() {
  document.title = `luxel serve: ${loaded} of ${figures.length} thumbnails loaded` + (failed ? `, ${failed} failed` : '');
  document.body.dataset.loaded = loaded;
  document.body.dataset.failed = failed;
}
async function fetchImage(url, init) {
  for (;;) {
    const r = await fetch(url, init);
    if (r.status !== 503 && r.status !== 429) return r;  // busy, or over the render rate: wait as told
    const wait = Number(r.headers.get('Retry-After') || 1);
    await new Promise(ok => setTimeout(ok, wait * 1000));
  }
}
async function load(fig) {
  const img = fig.querySelector('img');
  const r = await fetchImage(fig.dataset.src);
  if (!r.ok) {
    const e = await r.json().catch(() => ({error: r.statusText}));
    fig.querySelector('figcaption').append(' (' + e.error + ')');
    fig.classList.add('failed');
    failed++;
  } else {
    img.src = URL.createObjectURL(await r.blob());
    await img.decode();
    loaded++;
  }
  show();
}
async function worker(queue) { while (queue.length) await load(queue.shift()); }
const queue = figures.slice();
show();
Promise.all([worker(queue), worker(queue)]);

document.getElementById('upload').addEventListener('submit', async ev => {
  ev.preventDefault();
  const form = ev.target, status = document.getElementById('status'), out = document.getElementById('result');
  const params = new URLSearchParams({size: form.size.value, camera: form.camera.value, format: 'png'});
  if (form.member.value) params.set('map', form.member.value);
  status.textContent = 'rendering...';
  const r = await fetchImage('/render?' + params, {method: 'POST', body: new FormData(form)});
  if (!r.ok) {
    const e = await r.json().catch(() => ({error: r.statusText}));
    status.textContent = `${r.status}: ${e.error}`;
    return;
  }
  out.src = URL.createObjectURL(await r.blob());
  out.hidden = false;
  status.textContent = 'done';
});
)JS";

constexpr const char* kStyle = R"CSS(
body { font-family: sans-serif; margin: 1.5em; background: #1e1e1e; color: #ddd; }
a { color: #9cf; }
.gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 12px; }
figure { margin: 0; background: #2a2a2a; padding: 6px; }
figure img { width: 100%; aspect-ratio: 16 / 9; background: #333; display: block; }
figure.failed img { outline: 2px solid #c44; }
figcaption { font-size: 0.85em; margin-top: 4px; overflow-wrap: anywhere; }
form { background: #2a2a2a; padding: 10px; margin-bottom: 1.5em; }
#result { max-width: 100%; display: block; margin-top: 8px; }
#result[hidden] { display: none; }
)CSS";

}  // namespace

std::string galleryPage(const Catalogue& catalogue) {
    std::string figures;
    size_t shown = 0;
    for (const CatalogueEntry& e : catalogue.maps) {
        if (!e.error.empty()) continue;
        ++shown;
        const std::string name = escapeHtml(e.name);
        // Names are the work list's output names ([A-Za-z0-9._-]), safe in a URL path as they are.
        figures += fmt::format(
            "<figure data-src=\"/maps/{0}.jpg?size=320x180\"><a href=\"/maps/{0}.png?size=1280x720\"><img alt=\"{0}\"></a>"
            "<figcaption>{0} <small>{1}</small></figcaption></figure>\n",
            name, escapeHtml(e.format));
    }
    return fmt::format(R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>luxel serve</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{}</style></head>
<body>
<h1>luxel serve</h1>
<p>{} maps under the roots (<a href="/maps">/maps</a> as JSON, <a href="/metrics">/metrics</a>). {}.</p>
<form id="upload">
  <label>Map (.bsp, or .pk3 / .zip / .pak with its textures) <input type="file" name="map" required></label>
  <label>map in the archive <input name="member" placeholder="only one: leave empty" size="14"></label>
  <label>size <input name="size" value="512x288" size="9"></label>
  <label>camera <select name="camera"><option>best</option><option>spawn</option><option>intermission</option><option>overview</option></select></label>
  <button type="submit">Render</button> <span id="status"></span>
  <img id="result" alt="uploaded map's thumbnail" hidden>
</form>
<div class="gallery">
{}</div>
<script>{}</script>
</body></html>
)",
                       kStyle, shown, escapeHtml(luxelVersionString()), figures, kScript);
}

}  // namespace luxel::serve
