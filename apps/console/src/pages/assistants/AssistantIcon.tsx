// The navigation's icon for Connected assistants, drawn like those of components/Icons.tsx (24×24, stroked
// in currentColor, decorative): a robot's head.
export const AssistantIcon = () => (
  <svg
    className="icon"
    viewBox="0 0 24 24"
    width="20"
    height="20"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <rect x="4" y="8" width="16" height="12" rx="3" />
    <path d="M12 4v4M9 13v1.5M15 13v1.5M2 13v3M22 13v3" />
  </svg>
)
