import XCTest

@testable import Ripple

final class InflectionsTests: XCTestCase {
    /// Singular and plural pairs that the English rules must give both ways.
    private let pairs = [
        ("player", "players"), ("search", "searches"), ("box", "boxes"), ("address", "addresses"),
        ("wish", "wishes"), ("category", "categories"), ("query", "queries"), ("movie", "movies"),
        ("archive", "archives"), ("index", "indices"), ("matrix", "matrices"), ("vertex", "vertices"),
        ("wife", "wives"), ("half", "halves"), ("medium", "media"), ("analysis", "analyses"),
        ("basis", "bases"), ("axis", "axes"), ("octopus", "octopi"), ("virus", "viri"),
        ("alias", "aliases"), ("status", "statuses"), ("bus", "buses"), ("tomato", "tomatoes"),
        ("mouse", "mice"), ("ox", "oxen"), ("quiz", "quizzes"), ("news", "news"),
        ("series", "series"), ("shoe", "shoes"), ("database", "databases"), ("child", "children"),
        ("woman", "women"), ("person", "people"), ("foot", "feet"), ("leaf", "leaves"),
        ("sex", "sexes"), ("zombie", "zombies"), ("fish", "fish"), ("my money", "my money"),
    ]

    func testEnglishPairsBothWays() {
        let english = Inflections.english
        for (singular, plural) in pairs {
            XCTAssertEqual(english.pluralize(singular), plural, singular)
            XCTAssertEqual(english.singularize(plural), singular, plural)
            XCTAssertEqual(english.pluralize(plural), plural, "a plural stays plural: \(plural)")
            XCTAssertEqual(english.singularize(singular), singular, "a singular stays singular: \(singular)")
        }
    }

    func testFirstLetterCaseIsKept() {
        let english = Inflections.english
        for (singular, plural) in pairs {
            XCTAssertEqual(english.pluralize(singular.capitalized), plural.capitalized, singular)
            XCTAssertEqual(english.singularize(plural.capitalized), singular.capitalized, plural)
        }
        // Only the first letter's case is kept by irregular suffixes.
        XCTAssertEqual(english.pluralize("PERSON"), "People")
        XCTAssertEqual(english.singularize("People"), "Person")
    }

    func testOnlyTheLastWordIsInflected() {
        let english = Inflections.english
        XCTAssertEqual(english.pluralize("bestPlayer"), "bestPlayers")
        XCTAssertEqual(english.pluralize("best_player"), "best_players")
        XCTAssertEqual(english.pluralize("best player"), "best players")
        XCTAssertEqual(english.pluralize("teamPerson"), "teamPeople")
        XCTAssertEqual(english.singularize("BEST_PLAYERS"), "BEST_PLAYER")
        XCTAssertEqual(english.singularize("best players"), "best player")
    }

    func testTrailingDigitsAreKept() {
        let english = Inflections.english
        XCTAssertEqual(english.pluralize("player2"), "players2")
        XCTAssertEqual(english.singularize("people123"), "person123")
        XCTAssertEqual(english.pluralize("123"), "123")
        XCTAssertEqual(english.pluralize(""), "")
    }

    func testLastWord() {
        func lastWord(_ string: String) -> String {
            String(string[Inflections.startIndexOfLastWord(string)...])
        }
        XCTAssertEqual(lastWord(""), "")
        XCTAssertEqual(lastWord("_"), "_")
        XCTAssertEqual(lastWord("player"), "player")
        XCTAssertEqual(lastWord("PLAYER_SCORE"), "SCORE")
        XCTAssertEqual(lastWord("best player score1"), "score1")
        XCTAssertEqual(lastWord("bestPlayerScore"), "Score")
        XCTAssertEqual(lastWord("PlayerScore1"), "Score1")
    }

    func testDigitlessRadical() {
        XCTAssertEqual("".digitlessRadical, "")
        XCTAssertEqual("player".digitlessRadical, "player")
        XCTAssertEqual("player0".digitlessRadical, "player")
        XCTAssertEqual("player123".digitlessRadical, "player")
        XCTAssertEqual("12".digitlessRadical, "")
    }

    func testEmptyInflectionsChangeNothing() {
        let inflections = Inflections()
        XCTAssertEqual(inflections.pluralize("player"), "player")
        XCTAssertEqual(inflections.singularize("players"), "players")
    }

    func testNewestRuleWins() {
        var inflections = Inflections()
        inflections.plural("$", "s")
        inflections.plural("(x)$", "$1es")
        XCTAssertEqual(inflections.pluralize("box"), "boxes")
        XCTAssertEqual(inflections.pluralize("cat"), "cats")
        inflections.plural("$", "z")
        XCTAssertEqual(inflections.pluralize("box"), "boxz")
    }

    func testRulesAreCaseInsensitiveUnlessToldOtherwise() {
        var inflections = Inflections()
        inflections.singular("s$", "")
        XCTAssertEqual(inflections.singularize("CATS"), "CAT")
        var caseSensitive = Inflections()
        caseSensitive.singular("s$", options: [], "")
        XCTAssertEqual(caseSensitive.singularize("CATS"), "CATS")
        XCTAssertEqual(caseSensitive.singularize("cats"), "cat")
    }

    func testUncountableWords() {
        var inflections = Inflections.english
        inflections.uncountableWords(["ors", "猫", "HTTP"])
        for word in ["ors", "猫", "HTTP", "http", "sheep", "SHEEP", "funky jeans", "sheep2"] {
            XCTAssertEqual(inflections.pluralize(word), word)
            XCTAssertEqual(inflections.singularize(word), word)
        }
        // Only whole words are uncountable.
        XCTAssertEqual(inflections.pluralize("sponsor"), "sponsors")
        XCTAssertEqual(inflections.singularize("sponsors"), "sponsor")
        XCTAssertTrue(inflections.uncountables.isSuperset(of: ["ors", "猫", "HTTP", "sheep", "money"]))
    }

    func testIrregularSuffix() {
        var inflections = Inflections.english
        inflections.irregularSuffix("cactus", "cacti")
        inflections.irregularSuffix("goose", "geese")
        XCTAssertEqual(inflections.pluralize("cactus"), "cacti")
        XCTAssertEqual(inflections.singularize("Cacti"), "Cactus")
        XCTAssertEqual(inflections.pluralize("bigGoose"), "bigGeese")
        XCTAssertEqual(inflections.singularize("geese"), "goose")
        XCTAssertEqual(inflections.pluralize("geese"), "geese")
        XCTAssertEqual(inflections.singularize("goose"), "goose")
    }

    func testDefaultCanBeChangedAndRestored() {
        let original = Inflections.default
        defer { Inflections.default = original }
        XCTAssertEqual("person".pluralized, "people")
        XCTAssertEqual("people".singularized, "person")
        Inflections.default.irregularSuffix("person", "persons")
        // Words inflected before the change are inflected anew.
        XCTAssertEqual("person".pluralized, "persons")
        XCTAssertEqual("persons".singularized, "person")
        Inflections.default = original
        XCTAssertEqual("persons".singularized, "person")
        XCTAssertEqual("person".pluralized, "people")
    }
}
