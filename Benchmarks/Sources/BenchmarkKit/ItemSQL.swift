/// The hand-written SQL of the raw C contender and of the fixture builder.
public enum ItemSQL {
    /// Inserts one item; parameters 1...5 are title, score, createdAt, flag, category.
    public static let insert = "INSERT INTO item(title, score, createdAt, flag, category) VALUES (?, ?, ?, ?, ?)"

    /// Every row ordered by score, columns as `PreparedStatement.readItem()` expects.
    public static let allByScore = "\(selectItems) ORDER BY score"

    /// One page of rows ordered by score; parameter 1 is the limit, parameter 2 the offset.
    public static let pageByScore = "\(selectItems) ORDER BY score LIMIT ? OFFSET ?"

    /// The live query of the observe workloads: flagged rows ordered by score.
    public static let flaggedByScore = "\(selectItems) WHERE flag = 1 ORDER BY score"

    /// Sets score and flag of one row; parameters 1...3 are score, flag, id.
    public static let updateScoreAndFlag = "UPDATE item SET score = ?, flag = ? WHERE id = ?"

    /// Deletes one row; parameter 1 is its id.
    public static let deleteByID = "DELETE FROM item WHERE id = ?"

    private static let selectItems = "SELECT id, title, score, createdAt, flag, category FROM item"
}
