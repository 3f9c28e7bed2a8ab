/// "1 record", "2 records": a count and its noun, in the number the count takes (messages say
/// "1 line", never "1 lines" or "1 line(s)").
package func counted(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
  "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
}
