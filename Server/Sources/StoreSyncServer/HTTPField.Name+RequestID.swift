import HTTPTypes

extension HTTPField.Name {
    /// `X-Request-ID`: the id a client or a proxy gives a request, echoed in the answer.
    static var requestID: Self { Self("X-Request-ID")! }  // A valid field name: it cannot fail.
}
