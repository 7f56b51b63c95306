import type { ReactNode } from "react"

// Each network's mark, drawn inline and simplified (the console loads nothing from elsewhere), on the
// network's colour; a globe for a network the console has no mark for (a third-party adapter). Decorative:
// the network's name is always written beside it.
const Badge = ({ color, children }: { readonly color: string; readonly children: ReactNode }) => (
  <svg className="network-icon" viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" focusable="false">
    <rect width="24" height="24" rx="6" fill={color} />
    <g fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">{children}</g>
  </svg>
)

const marks: Readonly<Record<string, () => ReactNode>> = {
  x: () => (
    <Badge color="#000000">
      <path d="M7 6.5l10 11M17 6.5l-10 11" />
    </Badge>
  ),
  instagram: () => (
    <Badge color="#c13584">
      <rect x="5.5" y="5.5" width="13" height="13" rx="4" />
      <circle cx="12" cy="12" r="3" />
      <path d="M15.8 8.2h.01" />
    </Badge>
  ),
  facebook: () => (
    <Badge color="#1877f2">
      <path d="M14.5 6.5h-1.5a2.5 2.5 0 0 0-2.5 2.5v10M8.5 12h5.5" />
    </Badge>
  ),
  linkedin: () => (
    <Badge color="#0a66c2">
      <path d="M7.5 10.5v6.5M7.5 7.2v.01M11 17v-6.5M11 13.5a2.5 2.5 0 0 1 5 0V17" />
    </Badge>
  ),
  threads: () => (
    <Badge color="#101010">
      <path d="M15.5 9.5a4 4 0 1 0 .5 4.5M15.5 9.5v3a1.8 1.8 0 0 0 3.3 1 6.8 6.8 0 1 0-2.3 3.3" />
    </Badge>
  ),
  tiktok: () => (
    <Badge color="#010101">
      <path d="M13 5.5v9.5a3 3 0 1 1-3-3M13 5.5a4 4 0 0 0 4 4" />
    </Badge>
  ),
  youtube: () => (
    <Badge color="#d01c1c">
      <rect x="4.5" y="7" width="15" height="10" rx="3" />
      <path d="M11 10l3 2-3 2z" fill="#fff" />
    </Badge>
  )
}

const Generic = () => (
  <Badge color="#545d68">
    <circle cx="12" cy="12" r="6.5" />
    <path d="M5.5 12h13M12 5.5c2 2 2.5 4.5 2.5 6.5s-.5 4.5-2.5 6.5M12 5.5c-2 2-2.5 4.5-2.5 6.5s.5 4.5 2.5 6.5" />
  </Badge>
)

export const NetworkIcon = ({ network }: { readonly network: string }) => {
  const Mark = marks[network] ?? Generic
  return <Mark />
}
