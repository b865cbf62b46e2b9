extension Duration {
    /// The duration in milliseconds, with its fraction.
    public var inMilliseconds: Double {
        Double(components.seconds) * 1e3 + Double(components.attoseconds) * 1e-15
    }
}
