// Text contrast of a page as the browser renders it (WCAG 2 relative luminance).

/**
 * Every visible element with its own text whose colour against the first opaque background
 * behind it is below `min` (4.5 = WCAG AA for normal text). Resolves [{ text, ratio, color, background }].
 * Semi-transparent colours are not blended; the page under test uses opaque ones.
 */
export function lowContrastTexts(page, { min = 4.5, root = 'body' } = {}) {
	return page.evaluate(
		({ min, root }) => {
			const rgb = (css) => {
				const m = /rgba?\(([^)]+)\)/.exec(css);
				if (!m) return null;
				const [r, g, b, a = 1] = m[1]
					.split(/[ ,/]+/)
					.filter(Boolean)
					.map(Number);
				return { r, g, b, a };
			};
			const lum = ({ r, g, b }) => {
				const lin = (c) => {
					const s = c / 255;
					return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
				};
				return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
			};
			const backgroundOf = (el) => {
				for (let e = el; e; e = e.parentElement) {
					const c = rgb(getComputedStyle(e).backgroundColor);
					if (c && c.a >= 0.9) return c;
				}
				return { r: 255, g: 255, b: 255, a: 1 };
			};
			const low = [];
			for (const el of document.querySelector(root).querySelectorAll('*')) {
				const ownText = [...el.childNodes]
					.filter((n) => n.nodeType === 3)
					.map((n) => n.textContent.trim())
					.join(' ')
					.trim();
				if (!ownText) continue;
				const box = el.getBoundingClientRect();
				const style = getComputedStyle(el);
				if (
					box.width === 0 ||
					box.height === 0 ||
					style.visibility === 'hidden' ||
					style.display === 'none'
				)
					continue;
				const fg = rgb(style.color);
				const bg = backgroundOf(el);
				const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
				const ratio = (hi + 0.05) / (lo + 0.05);
				if (ratio < min)
					low.push({
						text: ownText.slice(0, 60),
						ratio: Math.round(ratio * 100) / 100,
						color: style.color,
						background: `rgb(${bg.r}, ${bg.g}, ${bg.b})`,
					});
			}
			return low;
		},
		{ min, root },
	);
}

/** True when nothing sticks out sideways (no horizontal scrolling of the whole page). */
export function fitsWidth(page) {
	return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}
