/** The tab's icon: a key in the accent colour on a rounded square, readable at 16 px. */
export const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#2563eb"/>
<circle cx="11" cy="16" r="5.5" fill="none" stroke="#fff" stroke-width="3"/>
<path d="M16.5 16H27M23 16v4.5M26.5 16v3.5" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/>
</svg>
`;
