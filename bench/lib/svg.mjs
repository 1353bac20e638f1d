// Two tiny SVG charts (no plotting dependency): lines over a log-scaled x axis (and optionally y),
// and horizontal bars.

const esc = (s) =>
  String(s).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  );
export const PALETTE = {
  direct: '#888888',
  floor: '#2b8a3e',
  modelgate: '#1c7ed6',
  'modelgate-pg': '#7048e8',
  portkey: '#e8590c',
};

function niceMax(value) {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

/**
 * `logY`: a log-scaled y axis from `yFloor` up (values at or below it are drawn on it), so that one
 * series hundreds of times above the others does not flatten them.
 * @param {{ title: string, xLabel: string, yLabel: string, logY?: boolean, yFloor?: number,
 *   series: { name: string, color: string, dashed?: boolean, points: [number, number][] }[] }} chart
 */
export function lineChart({ title, xLabel, yLabel, series, logY = false, yFloor = 0.1 }) {
  const width = 720;
  const height = 420;
  const m = { left: 70, right: 190, top: 40, bottom: 55 };
  const xs = [...new Set(series.flatMap((s) => s.points.map(([x]) => x)))].sort((a, b) => a - b);
  const ys = series.flatMap((s) => s.points.map(([, y]) => y)).filter(Number.isFinite);
  const yMin = logY ? yFloor : Math.min(0, ...ys);
  const yMax = logY
    ? 10 ** Math.ceil(Math.log10(Math.max(...ys, yFloor * 10)))
    : niceMax(Math.max(...ys, 0.1));
  const ly = (y) => (logY ? Math.log10(Math.max(y, yFloor)) : y);
  const lx = (x) => Math.log10(x);
  const [x0, x1] = [lx(xs[0] ?? 1), lx(xs[xs.length - 1] ?? 10)];
  const px = (x) => m.left + ((lx(x) - x0) / (x1 - x0 || 1)) * (width - m.left - m.right);
  const py = (y) =>
    height -
    m.bottom -
    ((ly(y) - ly(yMin)) / (ly(yMax) - ly(yMin) || 1)) * (height - m.top - m.bottom);
  const yTicks = logY
    ? Array.from({ length: Math.round(Math.log10(yMax / yMin)) + 1 }, (_, i) => yMin * 10 ** i)
    : Array.from({ length: 6 }, (_, i) => yMin + ((yMax - yMin) * i) / 5);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2 - m.right / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">${esc(title)}</text>`,
  ];
  for (const y of yTicks) {
    out.push(
      `<line x1="${m.left}" x2="${width - m.right}" y1="${py(y)}" y2="${py(y)}" stroke="#e5e5e5"/>`,
      `<text x="${m.left - 8}" y="${py(y) + 4}" text-anchor="end">${+y.toFixed(2)}</text>`,
    );
  }
  for (const x of xs) {
    out.push(
      `<line x1="${px(x)}" x2="${px(x)}" y1="${m.top}" y2="${height - m.bottom}" stroke="#f0f0f0"/>`,
      `<text x="${px(x)}" y="${height - m.bottom + 18}" text-anchor="middle">${x}</text>`,
    );
  }
  out.push(
    `<line x1="${m.left}" x2="${width - m.right}" y1="${py(logY ? yMin : 0)}" y2="${py(logY ? yMin : 0)}" stroke="#999"/>`,
    `<text x="${(m.left + width - m.right) / 2}" y="${height - 14}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text transform="translate(18 ${(m.top + height - m.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
  );
  series.forEach((s, i) => {
    const pts = s.points.filter(([, y]) => Number.isFinite(y));
    if (pts.length) {
      const d = pts
        .map(([x, y], j) => `${j ? 'L' : 'M'}${px(x).toFixed(1)} ${py(y).toFixed(1)}`)
        .join(' ');
      out.push(
        `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
      );
      for (const [x, y] of pts)
        out.push(
          `<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${s.color}"/>`,
        );
    }
    const legendY = m.top + 10 + i * 20;
    out.push(
      `<line x1="${width - m.right + 15}" x2="${width - m.right + 45}" y1="${legendY}" y2="${legendY}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
      `<text x="${width - m.right + 52}" y="${legendY + 4}">${esc(s.name)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** @param {{ title: string, unit: string, bars: { label: string, value: number, color: string }[] }} chart */
export function barChart({ title, unit, bars }) {
  const width = 720;
  const barHeight = 34;
  const m = { left: 210, right: 90, top: 45, bottom: 20 };
  const height = m.top + m.bottom + bars.length * (barHeight + 12);
  const max = niceMax(Math.max(...bars.map((b) => b.value), 1));
  const scale = (v) => (v / max) * (width - m.left - m.right);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="600">${esc(title)}</text>`,
  ];
  bars.forEach((b, i) => {
    const y = m.top + i * (barHeight + 12);
    out.push(
      `<text x="${m.left - 10}" y="${y + barHeight / 2 + 4}" text-anchor="end">${esc(b.label)}</text>`,
      `<rect x="${m.left}" y="${y}" width="${Math.max(1, scale(b.value)).toFixed(1)}" height="${barHeight}" fill="${b.color}"/>`,
      `<text x="${m.left + scale(b.value) + 6}" y="${y + barHeight / 2 + 4}">${+b.value.toFixed(1)} ${esc(unit)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
