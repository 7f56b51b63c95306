import type { Validation } from "./useValidation.ts"

type Check = Validation["networks"][number]

// A network's count of its text against its most, as the API counted it (its own counter: weighted
// characters, graphemes, bytes...). Over the most, it says by how much.
export const Counter = ({ check, name }: { readonly check: Check; readonly name: string }) => {
  const over = check.text.used - check.text.max
  return (
    <span className={`counter${over > 0 ? " counter-over" : ""}`}>
      <span className="counter-name">{name}</span> {check.text.used} / {check.text.max}
      {over > 0 ? <span className="visually-hidden">, {over} over the limit</span> : null}
    </span>
  )
}
