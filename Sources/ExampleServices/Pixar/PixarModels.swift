public import Foundation

/// A Pixar film (seeds 000 and 002).
public struct PixarFilm: Codable, Sendable, Identifiable, Hashable {
    /// The film's identifier.
    public let id: String
    /// The title.
    public let title: String
    /// The year of the theatrical release.
    public let releaseYear: Int
    /// The day of the theatrical release.
    public let releaseDate: Date
    /// The studio.
    public let studio: String
    /// A one-paragraph synopsis.
    public let synopsis: String

    /// Creates a film.
    public init(id: String, title: String, releaseYear: Int, releaseDate: Date, studio: String, synopsis: String) {
        self.id = id
        self.title = title
        self.releaseYear = releaseYear
        self.releaseDate = releaseDate
        self.studio = studio
        self.synopsis = synopsis
    }
}

/// A character of a Pixar film.
public struct PixarCharacter: Codable, Sendable, Identifiable, Hashable {
    /// The character's identifier.
    public let id: String
    /// The character's name.
    public let name: String
    /// The film the character appears in.
    public let filmId: String
    /// Who voices the character.
    public let voiceActor: String

    /// Creates a character.
    public init(id: String, name: String, filmId: String, voiceActor: String) {
        self.id = id
        self.name = name
        self.filmId = filmId
        self.voiceActor = voiceActor
    }
}

/// What a search finds: films and characters.
public struct SearchResults: Codable, Sendable, Hashable {
    /// The matching films.
    public let films: [PixarFilm]
    /// The matching characters.
    public let characters: [PixarCharacter]

    /// Creates search results.
    public init(films: [PixarFilm], characters: [PixarCharacter]) {
        self.films = films
        self.characters = characters
    }
}

/// A user's rating of a film, sent with ``PixarAPIEndpoint/rateFilm(id:rating:)``.
public struct FilmRating: Codable, Sendable, Hashable {
    /// Stars, from 1 to 5.
    public let rating: Int
    /// An optional comment.
    public let comment: String?

    /// Creates a rating.
    public init(rating: Int, comment: String? = nil) {
        self.rating = rating
        self.comment = comment
    }
}

/// The server's acknowledgement of a rating.
public struct RatingReceipt: Codable, Sendable, Hashable {
    /// The rated film.
    public let filmId: String
    /// The rating that was recorded.
    public let rating: Int
    /// The film's average rating, this one included.
    public let averageRating: Double
    /// How many ratings the film has.
    public let ratingsCount: Int

    /// Creates a receipt.
    public init(filmId: String, rating: Int, averageRating: Double, ratingsCount: Int) {
        self.filmId = filmId
        self.rating = rating
        self.averageRating = averageRating
        self.ratingsCount = ratingsCount
    }
}
