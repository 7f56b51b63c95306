import { useMutation } from "@tanstack/react-query"
import { useId, useState } from "react"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"

// Writing an answer in place: the text, Send, and the API's refusal in its own words (a network that said no,
// an account to reconnect). `send` makes the call; the form empties once it went through.
export const ReplyForm = ({ label, send, onCancel }: {
  readonly label: string
  readonly send: (text: string) => Promise<unknown>
  readonly onCancel?: () => void
}) => {
  const id = useId()
  const [text, setText] = useState("")
  const sending = useMutation({ mutationFn: () => send(text), onSuccess: () => setText("") })
  return (
    <form
      className="inbox-reply"
      onSubmit={(event) => {
        event.preventDefault()
        sending.mutate()
      }}
    >
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <textarea id={id} value={text} rows={3} onChange={(event) => setText(event.currentTarget.value)} />
      </div>
      <ErrorMessage error={sending.error} title="Not sent" />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={sending.isPending} disabled={text.trim() === ""}>Send</Button>
        {onCancel === undefined ? null : <Button variant="quiet" onClick={onCancel}>Cancel</Button>}
      </div>
    </form>
  )
}
