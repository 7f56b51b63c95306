/**
 * A network's mark as clients show it beside the network's name (`GET /api/v1/networks` publishes it): a
 * square SVG document, simplified, drawn in white strokes on the network's colour. Decorative: clients
 * always write the name too, and draw a generic mark for a network whose adapter has none.
 */

/** The mark: `marks` are SVG elements on a 24 × 24 grid, stroked white unless they say otherwise. */
export const badge = (color: string, marks: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="32" height="32">` +
  `<rect width="24" height="24" rx="6" fill="${color}"/>` +
  `<g fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${marks}</g></svg>`

/** The mark as a `data:` URL, for an `<img>`. */
export const dataUrl = (svg: string): string => `data:image/svg+xml,${encodeURIComponent(svg)}`
