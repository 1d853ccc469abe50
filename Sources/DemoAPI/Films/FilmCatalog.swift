#if DemoAPI
/// A Pixar film as served by `/films` (snake_case keys, ISO 8601 release date).
struct Film: Encodable, Sendable, Equatable {
    var id: String
    var title: String
    var releaseYear: Int
    var releaseDate: String
    var studio: String
    var synopsis: String

    private enum CodingKeys: String, CodingKey {
        case id, title, studio, synopsis
        case releaseYear = "release_year"
        case releaseDate = "release_date"
    }
}

/// A character of a film as served by `/films/{id}/characters` and `/search`.
struct FilmCharacter: Encodable, Sendable, Equatable {
    var id: String
    var name: String
    var filmID: String
    var voiceActor: String

    private enum CodingKeys: String, CodingKey {
        case id, name
        case filmID = "film_id"
        case voiceActor = "voice_actor"
    }
}

/// The fixed seed data: eight Pixar films, their main characters, and the `Last-Modified` time of each
/// film. Immutable, so every server shares it safely; only ratings change, and those live per server.
enum FilmCatalog {
    static let studio = "Pixar Animation Studios"

    static let films: [Film] = [
        film(
            "toy-story", "Toy Story", 1995, 11, 22,
            "A pull-string cowboy doll feels threatened when a flashy space ranger action figure becomes his owner's new favourite toy."),
        film(
            "finding-nemo", "Finding Nemo", 2003, 5, 30,
            "An overprotective clownfish crosses the ocean, helped by a forgetful blue tang, to find his son taken by a diver."),
        film(
            "the-incredibles", "The Incredibles", 2004, 11, 5,
            "A family of undercover superheroes is pulled out of suburban retirement to stop a vengeful former fan."),
        film(
            "ratatouille", "Ratatouille", 2007, 6, 29,
            "A rat with a refined palate teams up with a young kitchen hand to cook in one of the finest restaurants of Paris."),
        film(
            "wall-e", "WALL-E", 2008, 6, 27,
            "A lonely trash-compacting robot left on an abandoned Earth follows a sleek probe robot back to humanity's starship."),
        film(
            "up", "Up", 2009, 5, 29,
            "A widowed balloon seller ties thousands of balloons to his house to fly to South America, with a young scout aboard."),
        film(
            "inside-out", "Inside Out", 2015, 6, 19,
            "The emotions inside an eleven-year-old girl's mind struggle to guide her through a move to a new city."),
        film(
            "coco", "Coco", 2017, 11, 22,
            "A boy who dreams of being a musician enters the Land of the Dead to uncover his family's history."),
    ]

    static let characters: [FilmCharacter] = [
        FilmCharacter(id: "woody", name: "Woody", filmID: "toy-story", voiceActor: "Tom Hanks"),
        FilmCharacter(id: "buzz-lightyear", name: "Buzz Lightyear", filmID: "toy-story", voiceActor: "Tim Allen"),
        FilmCharacter(id: "mr-potato-head", name: "Mr. Potato Head", filmID: "toy-story", voiceActor: "Don Rickles"),
        FilmCharacter(id: "marlin", name: "Marlin", filmID: "finding-nemo", voiceActor: "Albert Brooks"),
        FilmCharacter(id: "dory", name: "Dory", filmID: "finding-nemo", voiceActor: "Ellen DeGeneres"),
        FilmCharacter(id: "nemo", name: "Nemo", filmID: "finding-nemo", voiceActor: "Alexander Gould"),
        FilmCharacter(id: "mr-incredible", name: "Bob Parr / Mr. Incredible", filmID: "the-incredibles", voiceActor: "Craig T. Nelson"),
        FilmCharacter(id: "elastigirl", name: "Helen Parr / Elastigirl", filmID: "the-incredibles", voiceActor: "Holly Hunter"),
        FilmCharacter(id: "edna-mode", name: "Edna Mode", filmID: "the-incredibles", voiceActor: "Brad Bird"),
        FilmCharacter(id: "remy", name: "Remy", filmID: "ratatouille", voiceActor: "Patton Oswalt"),
        FilmCharacter(id: "linguini", name: "Alfredo Linguini", filmID: "ratatouille", voiceActor: "Lou Romano"),
        FilmCharacter(id: "anton-ego", name: "Anton Ego", filmID: "ratatouille", voiceActor: "Peter O'Toole"),
        FilmCharacter(id: "wall-e", name: "WALL-E", filmID: "wall-e", voiceActor: "Ben Burtt"),
        FilmCharacter(id: "eve", name: "EVE", filmID: "wall-e", voiceActor: "Elissa Knight"),
        FilmCharacter(id: "carl-fredricksen", name: "Carl Fredricksen", filmID: "up", voiceActor: "Ed Asner"),
        FilmCharacter(id: "russell", name: "Russell", filmID: "up", voiceActor: "Jordan Nagai"),
        FilmCharacter(id: "dug", name: "Dug", filmID: "up", voiceActor: "Bob Peterson"),
        FilmCharacter(id: "joy", name: "Joy", filmID: "inside-out", voiceActor: "Amy Poehler"),
        FilmCharacter(id: "sadness", name: "Sadness", filmID: "inside-out", voiceActor: "Phyllis Smith"),
        FilmCharacter(id: "anger", name: "Anger", filmID: "inside-out", voiceActor: "Lewis Black"),
        FilmCharacter(id: "miguel", name: "Miguel Rivera", filmID: "coco", voiceActor: "Anthony Gonzalez"),
        FilmCharacter(id: "hector", name: "Héctor", filmID: "coco", voiceActor: "Gael García Bernal"),
        FilmCharacter(id: "ernesto-de-la-cruz", name: "Ernesto de la Cruz", filmID: "coco", voiceActor: "Benjamin Bratt"),
    ]

    /// `Last-Modified` of each film (seconds since 1970): fixed, one day apart, so
    /// `If-Modified-Since` tests can pick dates on either side.
    static let lastModified: [String: Int] = Dictionary(
        uniqueKeysWithValues: films.enumerated().map { index, film in
            (film.id, HTTPDate.timestamp(year: 2024, month: 3, day: index + 1) + 9 * 3600)
        }
    )

    /// `Last-Modified` of the list: that of the most recently modified film.
    static let listLastModified: Int = lastModified.values.max() ?? 0

    static func film(id: String) -> Film? {
        films.first { $0.id == id }
    }

    static func characters(ofFilm id: String) -> [FilmCharacter] {
        characters.filter { $0.filmID == id }
    }

    private static func film(_ id: String, _ title: String, _ year: Int, _ month: Int, _ day: Int, _ synopsis: String) -> Film {
        let monthText = month < 10 ? "0\(month)" : "\(month)"
        let dayText = day < 10 ? "0\(day)" : "\(day)"
        return Film(
            id: id,
            title: title,
            releaseYear: year,
            releaseDate: "\(year)-\(monthText)-\(dayText)T00:00:00Z",
            studio: studio,
            synopsis: synopsis
        )
    }
}
#endif
