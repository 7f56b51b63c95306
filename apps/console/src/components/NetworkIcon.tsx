// Each network's mark as its adapter draws it, from GET /api/v1/networks (a data: URL, so the console loads
// nothing from elsewhere); a globe for a network whose adapter has none. Decorative: the network's name is
// always written beside it.
const Generic = () => (
  <svg className="network-icon" viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" focusable="false">
    <rect width="24" height="24" rx="6" fill="#545d68" />
    <g fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <circle cx="12" cy="12" r="6.5" />
      <path d="M5.5 12h13M12 5.5c2 2 2.5 4.5 2.5 6.5s-.5 4.5-2.5 6.5M12 5.5c-2 2-2.5 4.5-2.5 6.5s.5 4.5 2.5 6.5" />
    </g>
  </svg>
)

export const NetworkIcon = ({ icon }: { readonly icon: string | null | undefined }) =>
  icon == null ? <Generic /> : <img className="network-icon" src={icon} alt="" width="32" height="32" />
