import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { ApiError } from "../../api/ApiError.ts"
import { api, unwrap } from "../../api/client.ts"
import { Banner, ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { QueryState } from "../../components/Page.tsx"
import { Table } from "../../components/Table.tsx"
import { when } from "../../components/when.ts"
import { type Delivery, outcome, succeeded } from "./EndpointState.tsx"
import { webhooksKey } from "./webhooksKey.ts"

const pageSize = 20

interface DeliveryPage {
  readonly data: ReadonlyArray<Delivery>
  readonly nextCursor: string | null
}

// The history, a page at a time: "Older" follows nextCursor, "Newer" goes back along the cursors seen.
export const WebhookDeliveries = ({ id }: { readonly id: string }) => {
  const queryClient = useQueryClient()
  const [cursors, setCursors] = useState<ReadonlyArray<string>>([])
  const cursor = cursors.at(-1)
  const page = useQuery({
    queryKey: [...webhooksKey, id, "deliveries", "page", cursor ?? "newest"],
    queryFn: async (): Promise<DeliveryPage> => {
      const { data, error, response } = await api.GET("/api/v1/webhooks/{id}/deliveries", {
        params: { path: { id }, query: { limit: pageSize, ...(cursor === undefined ? {} : { cursor }) } }
      })
      if (!response.ok || data === undefined) throw ApiError.from(response.status, error)
      return data
    }
  })
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(api.POST("/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", { params: { path: { id, deliveryId } } })),
    onSuccess: async () => {
      // The new attempt is the newest: show the first page.
      setCursors([])
      await queryClient.invalidateQueries({ queryKey: webhooksKey })
    }
  })
  return (
    <QueryState
      query={page}
      what="deliveries"
      isEmpty={(data) => data.data.length === 0 && cursor === undefined}
      empty={<p>No deliveries yet. Send a test event to see one.</p>}
    >
      {(data) => (
        <div className="stack">
          <ErrorMessage error={redeliver.error} />
          {redeliver.data === undefined ? null : (
            <Banner tone={succeeded(redeliver.data) ? "success" : "warning"} title="Redelivered">
              <p>{redeliver.data.event}, attempt {redeliver.data.attempt}: {outcome(redeliver.data)}.</p>
            </Banner>
          )}
          <Table
            caption="Delivery attempts"
            captionHidden
            rows={data.data}
            rowKey={(row) => row.id}
            columns={[
              { header: "Time", cell: (row) => <span className="nowrap">{when(row.createdAt)}</span> },
              { header: "Event", cell: (row) => <code>{row.event}</code> },
              { header: "Event id", cell: (row) => <code className="event-id" title={row.eventId}>{row.eventId.slice(0, 8)}</code> },
              { header: "Attempt", align: "end", cell: (row) => row.attempt },
              {
                header: "Status",
                cell: (row) => (
                  <span className={succeeded(row) ? "delivery-ok" : "delivery-failed"}>
                    {typeof row.statusCode === "number" ? row.statusCode : "No answer"}
                  </span>
                )
              },
              { header: "Duration", align: "end", cell: (row) => `${row.durationMs} ms` },
              {
                header: "Answer",
                cell: (row) => row.response === null || row.response === "" ? "—" : <span className="answer" title={row.response}>{row.response.slice(0, 80)}</span>
              },
              { header: "Error", cell: (row) => row.error ?? "—" },
              { header: "Next retry", cell: (row) => when(row.nextRetryAt) },
              {
                header: "Actions",
                align: "end",
                cell: (row) => (
                  <Button
                    onClick={() => redeliver.mutate(row.id)}
                    busy={redeliver.isPending && redeliver.variables === row.id}
                    aria-label={`Redeliver ${row.event}, attempt ${row.attempt} of ${when(row.createdAt)}`}
                  >
                    Redeliver
                  </Button>
                )
              }
            ]}
          />
          <nav className="pager" aria-label="Delivery pages">
            <Button onClick={() => setCursors((seen) => seen.slice(0, -1))} disabled={cursors.length === 0}>Newer</Button>
            <Button
              onClick={() => data.nextCursor !== null && setCursors((seen) => [...seen, data.nextCursor!])}
              disabled={data.nextCursor === null}
            >
              Older
            </Button>
          </nav>
        </div>
      )}
    </QueryState>
  )
}
