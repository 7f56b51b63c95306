import { useId, useState, type FormEvent } from "react"
import { ApiError } from "../../api/ApiError.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { TextField } from "../../components/Field.tsx"
import { NetworkIcon } from "../../components/NetworkIcon.tsx"
import { knownMethod, type Network, useConnect } from "./connect.ts"

// One network the server offers, with what its connect method asks for (from GET /api/v1/networks) and the
// button that starts it: OAuth's consent page, or a sign-in with the fields (secret ones masked). A method
// this console does not know is said in words.
export const ConnectNetwork = ({ network }: { readonly network: Network }) => {
  const headingId = useId()
  const connect = useConnect()
  const [values, setValues] = useState<Record<string, string>>({})
  const error = connect.error instanceof ApiError ? connect.error : undefined
  const submit = (event: FormEvent) => {
    event.preventDefault()
    // A credentials sign-in connects at once: the form is emptied, so no password stays on the page.
    connect.mutate({ network, values }, { onSuccess: () => setValues({}) })
  }
  return (
    <form className="card connect-card" aria-label={`Connect ${network.name}`} onSubmit={submit} noValidate>
      <div className="connect-card-title">
        <NetworkIcon icon={network.icon} />
        <h3 id={headingId}>{network.name}</h3>
      </div>
      {knownMethod(network)
        ? (
          <>
            <ErrorMessage error={connect.error} />
            {network.connect.fields.map((field) => (
              <TextField
                key={field.name}
                label={field.label}
                name={field.name}
                type={field.secret ? "password" : "text"}
                autoComplete="off"
                required={field.required}
                hint={field.hint}
                error={error?.about(field.name)}
                value={values[field.name] ?? ""}
                onChange={(event) => {
                  const value = event.currentTarget.value
                  setValues((current) => ({ ...current, [field.name]: value }))
                }}
              />
            ))}
            <div>
              <Button type="submit" variant="primary" busy={connect.isPending}>Connect {network.name}</Button>
            </div>
          </>
        )
        : (
          <p className="muted">
            This console cannot connect {network.name} accounts yet: they connect by “{network.connect.method}”, which
            it does not know. Update Herald, or connect the account through the API.
          </p>
        )}
    </form>
  )
}
